/**
 * Log texts the server writes itself, by message key. A row keeps the Chinese text in `content`
 * (what the original's API answered, so scripts reading it see no change) and the key with its
 * arguments in `metadata.msg`; the console renders `log-message:<key>` in the reader's language
 * and falls back to `content` for rows written before (or by code without) a key.
 *
 * Arguments named `quota` or ending in `_quota` are quota amounts: the console formats them
 * with the site's quota display; everything else is shown as it is.
 *
 * Adding a text: one entry here (its Chinese template), the same key in the four
 * `apps/web/src/features/server-text/locales/*.json` (under `log`) (a test checks), and `logMessage(key, args)`
 * where the row is written.
 */
export const LOG_MESSAGES = {
  redeem_topup: '通过兑换码充值 {{quota}}',
  invite_reward: '邀请用户 {{username}} 充值，赠送 {{quota}}',
  invitee_bonus: '使用邀请码赠送 {{quota}}',
  register_bonus: '新用户注册赠送 {{quota}}',
  admin_quota: '管理员增减用户额度 {{quota}}',
  admin_quota_remark: '管理员增减用户额度 {{quota}}, 备注: {{remark}}',
  online_topup: '在线充值成功，充值积分: {{points}}，支付金额：{{amount}} {{currency}}',
  plan_purchase: '在线购买套餐成功：{{plan}}，支付金额：{{amount}} {{currency}}',
  plan_held_credited: '套餐 {{plan}} 已在生效中且不续订，本次支付 {{amount}} {{currency}} 已转为余额 {{quota}}',
  plan_redeem: '通过兑换码获得套餐：{{plan}}',
  task_refused: '任务提交失败，未扣费（预扣 {{held}} 已退回）：{{reason}}',
  task_failed_refund: '异步任务执行失败 {{task}}，补偿 {{refund}}',
  mj_failed_refund: '构图失败 {{task}}，补偿 {{refund}}',
  task_failed_plan_refund: '异步任务执行失败 {{task}}，套餐额度 {{plan_quota}} 已退回当前窗口',
  task_failed_plan_kept: '异步任务执行失败 {{task}}，扣费的套餐窗口已重置，套餐额度 {{plan_quota}} 不再退回',
  relay_passthrough: '中继:{{path}}',
  client_left: 'client disconnected before the first byte',
  client_left_upstream_usage: 'client disconnected; billed on upstream usage',
  client_left_delivered: 'client disconnected; billed on delivered tokens',
  stream_broke: 'upstream stream broke off: {{reason}}',
  unsafe_content: '400 content contains sensitive information',
  realtime_session: 'realtime session',
} as const;

export type LogMessageKey = keyof typeof LOG_MESSAGES;
export type LogMessageArgs = Record<string, string | number>;
export interface LogMessage {
  key: LogMessageKey;
  args: LogMessageArgs;
}

/** True for argument names that carry a quota amount. */
export function isQuotaArg(name: string): boolean {
  return name === 'quota' || name.endsWith('_quota');
}

/**
 * Arguments the console shows as quota amounts (in currency when the site displays currency):
 * the quota arguments, and the refund and hold amounts of task rows, whose stored Chinese
 * `content` keeps raw points as the original wrote them (issue 38 point 5).
 */
export function isShownAsQuota(name: string): boolean {
  return isQuotaArg(name) || name === 'refund' || name === 'held';
}

/** Fills `{{name}}` placeholders; `quota` formats quota arguments (absent: the bare number). */
export function fillTemplate(template: string, args: LogMessageArgs, quota?: (q: number) => string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = args[name];
    if (v === undefined) return '';
    return quota && isQuotaArg(name) && typeof v === 'number' ? quota(v) : String(v);
  });
}

/** A row's `content` (Chinese, as before) and the `msg` to keep in its metadata. */
export function logMessage(key: LogMessageKey, args: LogMessageArgs = {}, quota?: (q: number) => string): { content: string; msg: LogMessage } {
  return { content: fillTemplate(LOG_MESSAGES[key], args, quota), msg: { key, args } };
}

/** The key and arguments a row's metadata carries, when it carries a known one. */
export function logMessageOf(metadata: Record<string, unknown> | null | undefined): LogMessage | null {
  const m = metadata?.msg as { key?: unknown; args?: unknown } | undefined;
  if (!m || typeof m.key !== 'string' || !(m.key in LOG_MESSAGES)) return null;
  const args = m.args && typeof m.args === 'object' ? (m.args as LogMessageArgs) : {};
  return { key: m.key as LogMessageKey, args };
}

/**
 * The user groups the server creates on first start, with the names it gives them (api.md §7.3).
 * While a group still carries its seeded name the console shows that name in the reader's
 * language (`server-text:group.<symbol>`); a name an administrator typed is shown as typed.
 */
export const SEEDED_GROUP_NAMES: Readonly<Record<string, string>> = { default: '默认分组', vip: 'vip分组', svip: 'svip分组' };

/** The owner name the server answers for a model whose channel type has no owner record. */
export const UNKNOWN_OWNER = '未知';
