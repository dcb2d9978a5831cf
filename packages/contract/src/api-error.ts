import type { z } from 'zod';
import { fillTemplate } from './log-message.js';

/**
 * Every code a `/api` failure can carry (issue 38 point 2), with its Chinese text: the `message`
 * the server answers beside the code, as today, so old clients reading `message` see no change.
 * The console renders `server-text:error.<code>` with the failure's `args` in the reader's
 * language and falls back to `message` for a code it does not know (a test checks that every
 * code here has all four translations).
 *
 * The first block is generic, by HTTP status: a failure whose thrower named no code here is
 * answered with one of them (its own `message`). A Chinese reader sees that message; the others
 * see the generic translation. Every other code names one failure, and its text is the template.
 *
 * Adding a code: one entry here, the same key under `error` in the four
 * `apps/web/src/features/server-text/locales/*.json`, and `apiError(status, code, args)` where it is thrown.
 */
export const API_ERRORS = {
  // Generic, by status: the message is the thrower's own text.
  bad_request: '请求无效',
  unauthorized: '未登录或登录已过期',
  forbidden: '无权进行此操作',
  not_found: '请求的内容不存在',
  conflict: '与现有数据冲突',
  payload_too_large: '请求体过大',
  too_many_requests: '请求过于频繁，请稍后再试',
  internal_error: '服务器内部错误',
  not_implemented: '尚未支持此操作',
  upstream_failed: '上游服务暂不可用，请稍后重试',

  // Request shape.
  invalid_parameter: '{{field}}: {{detail}}',
  invalid_json: '无效的 JSON 请求体',
  json_too_deep: 'JSON 嵌套层级过深',
  api_route_not_found: 'API route not found: {{method}} {{path}}',
  text_refused: '{{field}}: {{detail}}',

  // Session and permissions.
  not_signed_in: '无权进行此操作，未登录且未提供 access token',
  invalid_access_token: '无权进行此操作，access token 无效',
  permission_denied: '无权进行此操作，权限不足',
  user_banned: '用户已被封禁',
  two_factor_required: '管理员须先在个人设置中开启两步验证',
  step_up_required: '请先用两步验证码或通行密钥确认身份',
  session_required: '请在控制台登录后修改两步验证或通行密钥 (factor changes need a console session)',
  login_expired: '登录已过期，请重新登录',

  // Sign-in and registration.
  login_failed: '用户名或密码错误，或用户已被封禁',
  login_locked: '登录失败次数过多，请 {{seconds}} 秒后再试 (too many failed logins, retry in {{seconds}} s)',
  password_login_disabled: '管理员关闭了密码登录',
  register_disabled: '管理员关闭了新用户注册',
  password_register_disabled: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
  username_taken: '用户名已存在！',
  email_taken: '邮箱地址已被占用',
  email_not_registered: '该邮箱地址未注册',
  verification_code_wrong: '验证码错误或已过期',
  email_verification_required: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
  email_domain_not_allowed: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
  reset_link_invalid: '重置链接非法或已过期',
  two_factor_code_wrong: '验证码错误',
  two_factor_locked: '验证码错误次数过多，请 {{seconds}} 秒后再试 (too many wrong codes, retry in {{seconds}} s)',
  two_factor_not_enabled: '两步验证未开启',
  two_factor_already_enabled: '两步验证已开启',
  two_factor_not_started: '请先开始设置两步验证',
  turnstile_empty: 'Turnstile token 为空',
  turnstile_failed: 'Turnstile 校验失败，请刷新重试！',
  turnstile_unavailable: 'Turnstile 校验服务暂不可用，请稍后重试 (Turnstile unavailable)',
  original_password_wrong: '原密码错误 (original_password is wrong)',
  original_password_required: '修改密码须填写原密码 (original_password is required)',
  setup_token_invalid: '设置链接无效或已过期，请重启服务获取新的链接 (the setup link is invalid or expired)',
  setup_done: '初始设置已完成，不能再次进行 (setup is already done)',

  // OAuth and bindings.
  oauth_state: 'state is empty or not same',
  oauth_disabled: '{{provider}} 登录未开启',
  oauth_unreachable: '无法连接至 {{provider}} 服务器，请稍后重试！',
  oauth_failed: '{{provider}} 授权失败: {{reason}}',
  oauth_already_bound: '该 {{provider}} 账户已被绑定',
  binding_missing: '未绑定该账户',
  last_sign_in_method: '无法解绑：这是您唯一的登录方式，请先设置密码或绑定其他登录方式',

  // Users, groups, tokens, codes.
  user_not_found: '用户不存在',
  user_rank_forbidden: '无权更新同权限等级或更高权限等级的用户信息',
  root_protected: '无法修改超级管理员的身份',
  user_create_rank: '无法创建权限大于等于自己的用户',
  user_promote_rank: '无权将其他用户权限等级提升到大于等于自己的权限等级',
  root_undeletable: '无法删除超级管理员用户',
  user_delete_rank: '无权删除同权限等级或更高权限等级的用户',
  root_undisablable: '无法禁用超级管理员用户',
  root_only_promote: '只有超级管理员可以设置其他用户为管理员',
  redemption_not_found: '兑换码不存在',
  redemption_used_locked: '兑换码已被使用，不能修改状态',
  passkey_session_expired: '会话已过期',
  passkey_none: '您还没有通行密钥',
  passkey_user_unknown: '无法找到对应的用户',
  passkey_not_found: '凭据不存在',
  alert_email_missing: '请先绑定邮箱 (bind an e-mail address first)',
  alert_telegram_missing: "请先绑定 Telegram (link Telegram with the bot's /bind first)",
  group_exists: '分组标识 {{name}} 已存在',
  group_not_found: '用户组不存在',
  group_invalid: '无效的用户组',
  group_not_allowed: '当前用户组无权使用指定的分组',
  default_group_required: '不能关闭默认的用户组,请设置一个默认组后，再关闭',
  default_group_undeletable: '默认用户组不能删除',
  token_not_found: '令牌不存在',
  token_expired_enable: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  token_exhausted_enable: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  channel_not_found: '渠道不存在',
  test_model_missing: '请先设置测试模型 (set a test model first)',
  channel_test_running: '测试已在运行中',
  channel_test_failed: '{{reason}}',
  balance_unsupported: '该渠道类型不支持查询余额',
  balance_failed: '{{reason}}',
  redeem_code_missing: '未提供兑换码',
  redeem_code_invalid: '兑换失败，无效的兑换码',
  redeem_code_used: '兑换失败，该兑换码已被使用',
  quota_short: '额度不足：当前余额 {{balance}}，不能减少 {{amount}}',
  amount_too_small: '金额必须大于等于 {{minimum}}',
  unknown_option: '未知的配置项: {{key}}',

  // Payments and orders.
  payment_not_found: 'payment not found',
  payment_init_failed: '支付网关初始化失败：{{reason}}',
  payment_create_failed: '创建支付失败，请稍后再试',
  payment_provider_missing: '{{type}} 支付尚未接入',
  order_not_found: 'order not found',

  // Plans and subscriptions.
  plan_not_found: 'plan not found',
  plan_not_sold: 'this plan is not sold: its price is 0',
  plan_held: 'you already hold this plan and it does not renew; buy it again once it has ended',
  plan_order_pending: 'an order for this plan is already waiting for payment; pay or let it expire before ordering again',
  subscription_not_found: 'subscription not found',
  subscription_cancelled: 'subscription already cancelled',

  // Prices, model info and owners.
  price_exists: 'model already exists',
  price_not_found: 'model not found',
  price_duplicate: 'model names cannot be duplicated',
  pricing_data_missing: 'pricing data not found',
  model_info_not_found: 'model info not found',
  model_info_exists: 'model identifier already exists',
  owner_not_found: 'owner not found',
  owner_id_invalid: 'invalid id',
  owner_exists: 'owner id already exists',
  price_sync_mismatch: 'the price sync does not match its preview: preview again and apply that answer unchanged',
  price_sync_stale: 'the stored prices changed since the preview ({{models}}): preview again',

  // Settings.
  option_invalid: '{{detail}}',
  option_needs_config: '无法启用 {{key}}，请先填入 {{needs}}',
  release_feed_unconfigured: 'No release feed is configured (RELEASE_FEED_URL)',
  release_feed_failed: 'The release feed could not be read',

  // Monthly bills.
  invoice_month_invalid: 'invoice time cannot be later than or equal to current month',
  invoice_generated: 'invoice the month data already generated',

  // Mail.
  smtp_unconfigured: 'SMTP 服务器未配置 (SMTP server is not configured)',
  mail_failed: '邮件发送失败，请稍后重试或联系管理员 (mail could not be sent)',

  // OIDC and WeChat.
  oidc_disabled: '管理员未开启通过OIDC登录',
  oidc_unavailable: 'OIDC 服务暂不可用，请稍后重试 (OIDC provider unavailable)',
  wechat_disabled: '管理员未开启通过微信登录以及注册',
  wechat_taken: '该微信账号已被绑定',
  wechat_unconfigured: '管理员未配置微信服务器地址',
  wechat_unreachable: '微信服务器请求失败: {{reason}}',

  // Telegram.
  telegram_menu_not_found: 'menu not found',
  telegram_command_exists: 'command已存在',
  telegram_disabled: 'telegram bot is not enabled',

  // Step-up.
  step_up_console_only: '请在控制台登录后确认身份',

  // Sign-in providers, two-step resets and redemption.
  linuxdo_inactive: 'LINUX DO 账户未激活或已被禁言',
  linuxdo_trust_level: 'LINUX DO 信任等级不足，需要 {{min}} 级及以上',
  two_factor_reset_self: '不能在此重置自己的两步验证，请在个人设置中用验证码关闭',
  redeem_plan_missing: '兑换失败，该兑换码的套餐不存在',

  // Tasks, tokens, channels, jobs, log deletion, Uptime Kuma, passkeys.
  task_not_found: 'task not found',
  task_result_not_found: 'task result not found',
  video_not_found: 'video not found',
  playground_token_failed: '创建令牌失败，请去系统手动配置一个名称为：{{name}} 的令牌',
  token_owner_missing: '目标用户不存在',
  token_owner_not_found: '令牌所属用户不存在',
  tag_not_found: 'tag不存在',
  channel_key_empty: 'key不能为空',
  job_running: '该任务正在运行 (the job is already running)',
  log_deletion_starting: 'a log deletion is starting',
  log_deletion_running: 'log deletion {{id}} is still running',
  log_deletion_not_found: 'no such log deletion',
  uptime_kuma_unconfigured: 'Uptime Kuma is not configured',
  uptime_kuma_unreachable: 'Uptime Kuma is unreachable',
  uptime_kuma_failed: 'Uptime Kuma answered HTTP {{status}}',
  passkey_config_failed: '获取Webauthn配置失败',
  passkey_register_failed: '注册验证失败: {{reason}}',
  passkey_login_failed: '登录验证失败: {{reason}}',
  passkey_login_denied: '登陆失败',

  // User fields, the price service, WeChat and OIDC answers.
  user_role_unknown: 'role: unknown role {{role}}',
  user_group_unknown: 'group: unknown group {{group}}',
  price_list_unreachable: 'price list not fetched: {{reason}}',
  price_list_http: 'price service answered HTTP {{status}}',
  price_list_too_large: 'price list is larger than 8 MiB',
  price_list_not_json: 'price list is not JSON',
  price_list_rejected: 'price list rejected: {{detail}}',
  wechat_refused: '{{reason}}',
  oidc_forbidden: '用户没有OIDC登录权限',

  // Lists, mail transport, accounts and the node's workers (issue 38: no generic 500 without its own code).
  sort_field_invalid: "不允许对字段 '{{column}}' 进行排序",
  smtp_ca_unreadable: 'SMTP_CA_FILE cannot be read: {{detail}}',
  user_create_failed: 'user was not created',
  user_rank_read_forbidden: '无权获取同级或更高等级用户的信息',
  node_unanswered: 'the node did not answer',
  node_no_handler: 'nothing answers {{topic}}',
  node_restarting: 'the node’s first worker is starting again; try in a moment',

  // The relay, as the console meets it.
  no_available_channel: '当前分组 {{group}} 下对于模型 {{model}} 无可用渠道',
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;
export type ApiErrorArgs = Record<string, string | number>;

/** The generic codes: a failure answered with one carries its thrower's message, not the template. */
export const GENERIC_API_ERRORS = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'too_many_requests',
  'internal_error',
  'not_implemented',
  'upstream_failed',
] as const satisfies readonly ApiErrorCode[];

export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(API_ERRORS, code);
}

export function isGenericApiError(code: string): boolean {
  return (GENERIC_API_ERRORS as readonly string[]).includes(code);
}

/** The generic code of an HTTP status (any failure whose thrower named no listed code). */
export function genericApiError(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'too_many_requests';
  if (status === 501) return 'not_implemented';
  if (status === 502 || status === 503 || status === 504) return 'upstream_failed';
  if (status >= 500) return 'internal_error';
  return 'bad_request';
}

/** The Chinese text of a code with its arguments (what `message` says). */
export function apiErrorText(code: ApiErrorCode, args: ApiErrorArgs = {}): string {
  return fillTemplate(API_ERRORS[code], args);
}

/**
 * Why one field of a request body was refused, for the form to show at that field: `path` is the
 * zod path joined with dots (`username`, `setting.limits.rpm`).
 */
export const FIELD_ERRORS = {
  required: '必填',
  too_short: '至少 {{minimum}} 个字符',
  too_long: '最多 {{maximum}} 个字符',
  too_small: '不能小于 {{minimum}}',
  too_big: '不能大于 {{maximum}}',
  too_few: '至少 {{minimum}} 项',
  too_many: '最多 {{maximum}} 项',
  invalid_email: '邮箱地址无效',
  invalid_format: '格式无效',
  invalid_type: '类型无效',
  invalid_value: '无效的值',
} as const;

export type FieldErrorCode = keyof typeof FIELD_ERRORS;

export interface FieldError {
  path: string;
  code: FieldErrorCode;
  args?: ApiErrorArgs;
  /** The schema's own text (as `message` has it today). */
  message: string;
}

/** A failed `/api` answer: the envelope's `message` as before, with the code, its arguments and field errors beside it. */
export interface ApiFailure {
  success: false;
  message: string;
  code: ApiErrorCode;
  args?: ApiErrorArgs;
  fields?: FieldError[];
  data?: unknown;
}

/** A zod issue as a field error: the code the console translates and the bound it names. */
export function fieldErrorOf(issue: z.core.$ZodIssue): FieldError {
  const path = issue.path.map(String).join('.');
  const base = { path, message: issue.message };
  switch (issue.code) {
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') return minimum <= 1 ? { ...base, code: 'required' } : { ...base, code: 'too_short', args: { minimum } };
      if (issue.origin === 'array' || issue.origin === 'set') return { ...base, code: 'too_few', args: { minimum } };
      return { ...base, code: 'too_small', args: { minimum } };
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return { ...base, code: 'too_long', args: { maximum } };
      if (issue.origin === 'array' || issue.origin === 'set') return { ...base, code: 'too_many', args: { maximum } };
      return { ...base, code: 'too_big', args: { maximum } };
    }
    case 'invalid_format':
      return { ...base, code: issue.format === 'email' ? 'invalid_email' : 'invalid_format' };
    case 'invalid_type':
      return { ...base, code: issue.input === undefined ? 'required' : 'invalid_type' };
    default:
      return { ...base, code: 'invalid_value' };
  }
}

/** Sign-in providers as the `provider` argument of OAuth codes names them (the same in every language). */
export const OAUTH_PROVIDER_LABELS = { github: 'GitHub', lark: 'Lark', linuxdo: 'LINUX DO', oidc: 'OIDC', wechat: 'WeChat' } as const;
