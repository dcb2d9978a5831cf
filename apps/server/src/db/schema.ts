import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for Kysely, one interface per table of api.md §1 (columns in migrations/).
 *
 * Storage choices shared by all three dialects (see docs/decisions/0002-column-types.md):
 * - booleans are integers 0/1 (typed `number`), never native booleans;
 * - times are epoch seconds in bigint columns (midjourneys: milliseconds); `deleted_at` too,
 *   nullable, instead of the original's datetime;
 * - `statistics.date` and `statistics_months.date` are 'YYYY-MM-DD' strings (varchar(10));
 * - JSON columns are text (`string | null`), parsed by the repositories;
 * - quota and counters are 64-bit (the original's 32-bit columns overflow, api.md §8.1);
 * - bigint and decimal arrive as JS numbers: db/index.ts sets pg type parsers for int8/numeric
 *   and mysql2's decimalNumbers; every value here stays below 2^53.
 */

type Id = Generated<number>;
/** Column with a database default: optional on insert. */
type Def<T> = ColumnType<T, T | undefined, T>;
/** Long text column: nullable, no default (MySQL allows no default on TEXT). */
type Text = ColumnType<string | null, string | null | undefined, string | null>;

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: Def<string>;
  role: Def<number>;
  status: Def<number>;
  email: Def<string>;
  avatar_url: Def<string>;
  oidc_id: Def<string>;
  github_id: Def<string>;
  github_id_new: Def<number>;
  wechat_id: Def<string>;
  telegram_id: Def<number>;
  lark_id: Def<string>;
  /** LINUX DO Connect user id (migration 0007). */
  linuxdo_id: Def<string>;
  access_token: string | null;
  quota: Def<number>;
  used_quota: Def<number>;
  request_count: Def<number>;
  group: Def<string>;
  aff_code: string | null;
  aff_count: Def<number>;
  aff_quota: Def<number>;
  aff_history: Def<number>;
  inviter_id: Def<number>;
  /** 1 once the inviter was rewarded for this user's first top-up. */
  aff_reward_paid: Def<number>;
  last_login_time: Def<number>;
  last_login_ip: Def<string>;
  created_time: Def<number>;
  deleted_at: Def<number | null>;
  /** Bumped to end every session of the user (logout, password change, ban, role change). */
  session_version: Def<number>;
  /** Own low-balance alert (migration 0009): threshold in quota units (0 = off), 'email' | 'telegram', 1 once told. */
  quota_alert_threshold: Def<number>;
  quota_alert_channel: Def<string>;
  quota_alert_sent: Def<number>;
  /** Request limits set by an admin (RequestLimits JSON); NULL: none. */
  limits: Text;
  /** 1: pay from the balance once a plan window is spent (migration 0013). */
  plan_fallback: Def<number>;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: Def<string>;
  status: Def<number>;
  name: Def<string>;
  created_time: Def<number>;
  accessed_time: Def<number>;
  expired_time: Def<number>;
  remain_quota: Def<number>;
  unlimited_quota: Def<number>;
  used_quota: Def<number>;
  group: Def<string>;
  backup_group: Def<string>;
  setting: Text;
  deleted_at: Def<number | null>;
  /** MCP allow list: comma-separated server/tool patterns, '' = all (migration 0030). */
  mcp_tools: Def<string>;
}

export interface ChannelsTable {
  id: Id;
  type: Def<number>;
  key: string;
  status: Def<number>;
  name: Def<string>;
  weight: Def<number | null>;
  created_time: Def<number>;
  test_time: Def<number>;
  response_time: Def<number>;
  base_url: Def<string | null>;
  other: Text;
  balance: Def<number>;
  balance_updated_time: Def<number>;
  models: Text;
  group: Def<string>;
  tag: Def<string>;
  used_quota: Def<number>;
  model_mapping: Text;
  model_headers: Text;
  custom_parameter: Text;
  priority: Def<number | null>;
  proxy: Def<string | null>;
  test_model: Def<string>;
  only_chat: Def<number>;
  pre_cost: Def<number>;
  compatible_response: Def<number>;
  allow_extra_body: Def<number>;
  disabled_stream: Text;
  plugin: Text;
  /** Why the channel is disabled, for the console. */
  disabled_reason: Text;
  /** 'manual' | 'auto' | '': a manual disable is never undone by auto-enable. */
  disabled_source: Def<string>;
  deleted_at: Def<number | null>;
}

export interface OptionsTable {
  key: string;
  value: Text;
}

export interface RedemptionsTable {
  id: Id;
  user_id: Def<number>;
  key: string;
  status: Def<number>;
  name: Def<string>;
  quota: Def<number>;
  created_time: Def<number>;
  redeemed_time: Def<number>;
  /** Who redeemed it (the original does not record this). */
  used_user_id: Def<number>;
  /** A plan code: grants this plan instead of quota (migration 0013). */
  plan_id: Def<number>;
}

export interface LogsTable {
  id: Id;
  user_id: Def<number>;
  created_at: number;
  type: number;
  content: Text;
  username: Def<string>;
  token_name: Def<string>;
  token_id: Def<number>;
  model_name: Def<string>;
  quota: Def<number>;
  prompt_tokens: Def<number>;
  completion_tokens: Def<number>;
  cache_read_tokens: Def<number>;
  cache_write_tokens: Def<number>;
  reasoning_tokens: Def<number>;
  channel_id: Def<number>;
  request_time: Def<number>;
  is_stream: Def<number>;
  source_ip: Def<string>;
  group: Def<string>;
  request_id: Def<string>;
  /** 1 when usage was counted locally because upstream sent none. */
  estimated: Def<number>;
  metadata: Text;
}

export interface PricesTable {
  model: string;
  type: Def<string>;
  channel_type: Def<number>;
  input: Def<number>;
  output: Def<number>;
  locked: Def<number>;
  extra_ratios: Text;
  /** Long-context tiers (JSON), migration 0014. */
  tiers: Text;
  /** Service-class multipliers (JSON), migration 0024. */
  service_ratios: Text;
}

export interface UserGroupsTable {
  id: Id;
  symbol: string;
  name: Def<string>;
  ratio: Def<number>;
  api_rate: Def<number>;
  public: Def<number>;
  promotion: Def<number>;
  min: Def<number>;
  max: Def<number>;
  enable: Def<number | null>;
  /** Per-model request limits for each user of the group (ModelLimits JSON); NULL: none. */
  model_limits: Text;
}

/** Opt-in captures of relay bodies (migration 0014; `stream` 0022). */
export interface LogCapturesTable {
  id: Id;
  created_at: number;
  request_id: Def<string>;
  user_id: Def<number>;
  token_id: Def<number>;
  channel_id: Def<number>;
  status: Def<number>;
  request_headers: Text;
  request_body: Text;
  response_body: Text;
  /** 1: the answer was a stream (SSE or Gemini's JSON array), kept as the client received it. */
  stream: Def<number>;
}

export interface AuditLogsTable {
  id: Id;
  created_at: number;
  actor_id: number;
  actor_name: Def<string>;
  actor_role: Def<number>;
  ip: Def<string>;
  /** `create`, `update`, `delete`, `reveal_key`, or the route's own verb for batch operations. */
  action: string;
  target_kind: string;
  target_id: Def<string>;
  /** JSON `{field: {before, after}}`, secrets masked. */
  diff: Text;
}

export interface PaymentsTable {
  id: Id;
  type: string;
  uuid: string;
  name: string;
  icon: Def<string>;
  notify_domain: Def<string>;
  fixed_fee: Def<number>;
  percent_fee: Def<number>;
  currency: Def<string>;
  config: Text;
  sort: Def<number>;
  enable: Def<number | null>;
  created_at: Def<number>;
  updated_at: Def<number>;
  deleted_at: Def<number | null>;
}

export interface OrdersTable {
  id: Id;
  user_id: number;
  gateway_id: number;
  trade_no: string;
  gateway_no: Def<string>;
  amount: Def<number>;
  order_amount: Def<number>;
  order_currency: Def<string>;
  quota: Def<number>;
  fee: Def<number>;
  discount: Def<number>;
  status: Def<string>;
  created_at: Def<number>;
  updated_at: Def<number>;
  deleted_at: Def<number | null>;
  fail_reason: Def<string>;
  /** The plan this order buys; 0 for a quota top-up (migration 0013). */
  plan_id: Def<number>;
}

export interface TelegramMenusTable {
  id: Id;
  command: string;
  description: Def<string>;
  parse_mode: Def<string>;
  reply_message: Text;
}

export interface MidjourneysTable {
  id: Id;
  code: Def<number>;
  user_id: number;
  action: Def<string>;
  mj_id: Def<string>;
  prompt: Text;
  prompt_en: Text;
  description: Text;
  state: Text;
  submit_time: Def<number>;
  start_time: Def<number>;
  finish_time: Def<number>;
  image_url: Text;
  status: Def<string>;
  progress: Def<string>;
  fail_reason: Text;
  channel_id: Def<number>;
  quota: Def<number>;
  buttons: Text;
  properties: Text;
  mode: Text;
  token_id: Def<number>;
  /** Paid by a plan (migration 0020): the subscription, its window's start and what the window paid; 0 when the balance paid. */
  subscription_id: Def<number>;
  plan_window: Def<number>;
  plan_quota: Def<number>;
  /** The spending-cap window keys its charge was counted in (migration 0023, JSON array); null when none. */
  limit_windows: Text;
  /** The roll-up row its charge was counted in (migration 0027, JSON `{date, model_name}`); null when none. */
  charge_stat: Text;
}

export interface TasksTable {
  id: Id;
  created_at: Def<number>;
  updated_at: Def<number>;
  task_id: Def<string>;
  platform: Def<string>;
  user_id: number;
  channel_id: Def<number>;
  quota: Def<number>;
  action: Def<string>;
  status: Def<string>;
  fail_reason: Text;
  submit_time: Def<number>;
  start_time: Def<number>;
  finish_time: Def<number>;
  progress: Def<number>;
  properties: Text;
  data: Text;
  notify_hook: Text;
  token_id: Def<number>;
  /** Paid by a plan (migration 0020): the subscription, its window's start and what the window paid; 0 when the balance paid. */
  subscription_id: Def<number>;
  plan_window: Def<number>;
  plan_quota: Def<number>;
  /** The spending-cap window keys its charge was counted in (migration 0023, JSON array); null when none. */
  limit_windows: Text;
  /** The roll-up row its charge was counted in (migration 0027, JSON `{date, model_name}`); null when none. */
  charge_stat: Text;
}

/**
 * The daily roll-up summed over users: one row per day, channel and model (migration 0019),
 * written with `statistics` in the same transaction, so it always equals `statistics` grouped
 * by those keys. Analytics over all users reads it: its size does not grow with the users.
 */
export interface StatisticsTotalsTable {
  date: string;
  channel_id: number;
  model_name: string;
  request_count: Def<number>;
  quota: Def<number>;
  prompt_tokens: Def<number>;
  completion_tokens: Def<number>;
  request_time: Def<number>;
}

/** Daily roll-up; `date` is 'YYYY-MM-DD' in UTC. */
export interface StatisticsTable extends StatisticsTotalsTable {
  user_id: number;
}

/** Monthly bill; `date` is the month's first day 'YYYY-MM-01'. */
export interface StatisticsMonthsTable {
  date: string;
  user_id: number;
  model_name: string;
  request_count: Def<number>;
  quota: Def<number>;
  prompt_tokens: Def<number>;
  completion_tokens: Def<number>;
  request_time: Def<number>;
}

export interface StatisticsMonthGeneratedHistoriesTable {
  id: Id;
  date: string;
  count: Def<number>;
  created_at: Def<number>;
}

export interface ModelOwnedByTable {
  id: number;
  name: string;
  icon: Def<string>;
}

export interface ModelInfoTable {
  id: Id;
  model: string;
  name: Def<string>;
  description: Text;
  context_length: Def<number>;
  max_tokens: Def<number>;
  input_modalities: Text;
  output_modalities: Text;
  tags: Text;
  support_url: Text;
  created_at: Def<number>;
  updated_at: Def<number>;
}

/** TOTP two-factor of one user (migration 0007). */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  enabled: Def<number>;
  last_step: Def<number>;
  recovery: Text;
  created_time: Def<number>;
}

export interface WebauthnCredentialsTable {
  id: Id;
  user_id: number;
  /** base64url of the raw credential id. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: Text;
  attestation_type: Def<string>;
  alias: Def<string>;
  backup_eligible: Def<number>;
  backup_state: Def<number>;
  aa_guid: Def<string>;
  sign_count: Def<number>;
  clone_warning: Def<number>;
  attachment: Def<string>;
  created_time: Def<number>;
}

/** Responses produced by conversion, kept for `previous_response_id` (migration 0003). */
export interface StoredResponsesTable {
  id: string;
  user_id: number;
  model: Def<string>;
  /** The conversation so far as Responses input items (JSON array). */
  items: string;
  created_at: number;
  expires_at: number;
  /** The channel that produced it (migration 0024; 0 for older rows). */
  channel_id: Def<number>;
  /** The response object as sent (JSON); null for pass-through rows, which upstream keeps. */
  response: Def<string | null>;
}

/** Anthropic Message Batches relayed, with their owner, hold and settlement (migration 0026). */
export interface MessageBatchesTable {
  id: Id;
  batch_id: string;
  user_id: number;
  token_id: number;
  token_name: Def<string>;
  group: Def<string>;
  channel_id: number;
  /** What creation took from the balance: the worst case at the batch ratio. */
  held: Def<number>;
  /** What the ended batch cost (≤ held); the rest went back. */
  quota: Def<number>;
  /** Upstream's processing_status as last seen: in_progress | canceling | ended. */
  status: Def<string>;
  /** JSON `{ratio, groupRatio, models: {custom_id: model}}`: how its results are priced. */
  requests: string;
  /** The last batch object upstream answered (JSON). */
  batch: Text;
  request_id: Def<string>;
  created_at: number;
  updated_at: number;
  /** When it was billed from its results; 0 while it runs. */
  settled_at: Def<number>;
  /** When its owner deleted it (0: not deleted). */
  deleted_at: Def<number>;
}

/** A background response (migration 0028): `upstream` ones wait to be settled, `local` ones the gateway runs; `interaction` rows are Gemini background interactions, keyed by `interactionKey` (the id is in `facts`). */
export interface BackgroundResponsesTable {
  id: string;
  kind: 'upstream' | 'local' | 'interaction';
  status: string;
  user_id: number;
  token_id: Def<number>;
  channel_id: Def<number>;
  facts: string;
  held: Def<number>;
  billed: Def<number>;
  response: Def<string | null>;
  events: Def<string | null>;
  node: Def<string>;
  created_at: number;
  updated_at: number;
}

/** Console log deletions, durable and resumable (migration 0031). */
export interface LogDeletionsTable {
  id: Id;
  target_timestamp: number;
  /** Log type deleted; 0 = every type. */
  type: Def<number>;
  deleted: Def<number>;
  /** The highest log id the deletion has walked past. */
  last_id: Def<number>;
  /** The newest log id older than the target when it started: where the walk ends. */
  max_id: Def<number>;
  /** running | done | failed */
  status: Def<string>;
  error: Def<string>;
  started_at: number;
  finished_at: Def<number>;
}

/** A node's slice of a user's (kind 1) or token's (kind 2) balance; see migration 0005. */
export interface QuotaLeasesTable {
  id: Id;
  node: string;
  owner_kind: number;
  owner_id: number;
  amount: Def<number>;
  created_at: number;
  expires_at: number;
}

/** The last run of a scheduled job (migration 0015); outcome '' when it never ran. */
export interface JobRunsTable {
  name: string;
  last_run_at: Def<number>;
  last_duration_ms: Def<number>;
  last_outcome: Def<string>;
  last_message: string | null;
}

/** Subscription plans (migration 0013); `groups` / `models` are JSON arrays, empty = all. */
export interface PlansTable {
  id: Id;
  name: string;
  description: Text;
  price_cents: Def<number>;
  currency: Def<string>;
  duration_kind: Def<string>;
  duration_count: Def<number>;
  window_kind: Def<string>;
  window_quota: Def<number>;
  groups: Text;
  models: Text;
  renews: Def<number>;
  public: Def<number>;
  enabled: Def<number>;
  sort: Def<number>;
  created_at: Def<number>;
  updated_at: Def<number>;
  deleted_at: Def<number | null>;
}

export interface SubscriptionsTable {
  id: Id;
  user_id: number;
  plan_id: number;
  start_at: number;
  end_at: number;
  /** 'active' or 'cancelled'; expiry follows from end_at. */
  status: Def<string>;
  source: string;
  source_ref: Def<string>;
  created_at: Def<number>;
}

export interface PlanUsageTable {
  subscription_id: number;
  window_start: number;
  used: Def<number>;
}

/** Upstream MCP servers (migration 0030); `headers` and `auth` are sealed. */
export interface McpServersTable {
  id: Id;
  name: string;
  transport: string;
  url: string;
  header_names: Text;
  headers: Text;
  auth_type: Def<string>;
  auth: Text;
  groups: Def<string>;
  price: Def<number>;
  timeout_ms: Def<number>;
  enabled: Def<number>;
  catalogue: Text;
  protocol_version: Def<string>;
  last_refresh_time: Def<number>;
  last_error: Text;
  created_time: Def<number>;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  options: OptionsTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  prices: PricesTable;
  user_groups: UserGroupsTable;
  payments: PaymentsTable;
  orders: OrdersTable;
  telegram_menus: TelegramMenusTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  statistics: StatisticsTable;
  statistics_totals: StatisticsTotalsTable;
  statistics_months: StatisticsMonthsTable;
  statistics_month_generated_histories: StatisticsMonthGeneratedHistoriesTable;
  model_owned_by: ModelOwnedByTable;
  model_info: ModelInfoTable;
  webauthn_credentials: WebauthnCredentialsTable;
  stored_responses: StoredResponsesTable;
  message_batches: MessageBatchesTable;
  background_responses: BackgroundResponsesTable;
  log_deletions: LogDeletionsTable;
  quota_leases: QuotaLeasesTable;
  audit_logs: AuditLogsTable;
  log_captures: LogCapturesTable;
  two_factor: TwoFactorTable;
  job_runs: JobRunsTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  plan_usage: PlanUsageTable;
  mcp_servers: McpServersTable;
}
