import { z } from 'zod';
import { ConfigError, configPath, flagValue, readConfigFile, type ConfigFile } from './file.js';

const boolFlag = z
  .string()
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  SQLITE_PATH: z.string().default('./data/one-hub.db'),
  SQL_DSN: z.string().optional(),
  /** Seconds to keep retrying (with backoff) a database server that is not reachable at start-up. */
  DB_CONNECT_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(60),
  REDIS_CONN_STRING: z.string().optional(),
  /** Prefix for every Redis key and channel, so several installs (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().default(''),
  SESSION_SECRET: z.string().optional(),
  /** Always mark the session cookie Secure (behind a TLS-terminating proxy without TRUST_PROXY). */
  SESSION_SECURE_COOKIE: boolFlag,
  INITIAL_ROOT_PASSWORD: z.string().optional(),
  NODE_TYPE: z.enum(['master', 'slave']).default('master'),
  /** Processes serving this node on its one port: a number, or `auto` for one per core (needs SQL_DSN and Redis). */
  WORKERS: z.string().regex(/^(auto|[1-9]\d?)$/, 'a number from 1 to 99, or auto').default('1'),
  SYNC_FREQUENCY: z.coerce.number().int().min(1).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  WEB_DIST: z.string().optional(),
  LANGUAGE: z.string().default('zh_CN'),
  TRUST_PROXY: boolFlag,
  /** Requests per 180 s per IP on /api (0 = off). */
  GLOBAL_API_RATE_LIMIT: z.coerce.number().int().min(0).default(300),
  /** Requests per 20 min per IP on login, register, reset and OAuth (0 = off). */
  CRITICAL_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  /** Turnstile verification endpoint (overridable for tests). */
  TURNSTILE_VERIFY_URL: z.string().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** Sign-in providers' hosts (overridable for tests and sandboxes). */
  GITHUB_BASE_URL: z.string().default('https://github.com'),
  GITHUB_API_BASE_URL: z.string().default('https://api.github.com'),
  LARK_BASE_URL: z.string().default('https://open.feishu.cn'),
  LINUXDO_BASE_URL: z.string().default('https://connect.linux.do'),
  /** Extra CAs (PEM file) trusted for the SMTP server's certificate, beside the system's. */
  SMTP_CA_FILE: z.string().default(''),
  MCP_ALLOW_STDIO: boolFlag.describe('MCP gateway: allow admins to register stdio MCP servers (a command the gateway runs); off by default'),
  MCP_MAX_RESULT_BYTES: z.coerce.number().int().min(1024).default(4 * 1024 * 1024).describe('MCP gateway: largest upstream answer (bytes) read for one call; a larger one is refused'),
  MCP_REFRESH_MINUTES: z.coerce.number().int().min(0).default(10).describe('MCP gateway: minutes between catalogue refreshes of every enabled server (0 = only on demand)'),
  BATCH_FLUSH_MS: z.coerce.number().int().min(10).default(1000),
  /** Quota leases (docs/decisions.md): a crashed node's slices return this long after its last renewal. */
  QUOTA_LEASE_TTL_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  /** A slice covers this many seconds of a balance's recent demand. */
  QUOTA_LEASE_SLICE_SECONDS: z.coerce.number().min(0.1).max(60).default(2),
  /** A slice unused this long goes back to the balance. */
  QUOTA_LEASE_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /** An idle slice the balance column still covered is kept this long (back sooner when another node finds the balance short). */
  QUOTA_LEASE_KEEP_SECONDS: z.coerce.number().int().min(1).max(86400).default(600),
  /** Uptime Kuma status page shown on the dashboard (base URL and status page slug). */
  UPTIME_KUMA_ENABLE: boolFlag,
  UPTIME_KUMA_DOMAIN: z.string().default(''),
  UPTIME_KUMA_STATUS_PAGE_NAME: z.string().default(''),
  /**
   * This project's release feed, answered by GET /api/option/release/latest (a GitHub-style
   * latest-release JSON: tag_name, body, html_url). Empty (the default: the project publishes no
   * feed yet) hides the console's "Check update" button.
   */
  RELEASE_FEED_URL: z.string().default(''),
  /** HTTP Basic credentials of GET /api/metrics; without both the route answers 404. */
  METRICS_USER: z.string().default(''),
  METRICS_PASSWORD: z.string().default(''),
  /** How far (%) V8's old generation may grow past its live size before a full collection; 0 = V8's default. */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(20),
  /** Monthly bills: generate last month's bill daily and show the bill screen. */
  USER_INVOICE_MONTH: boolFlag,
  /** Telegram bot (api.md §5 tg.*): empty key = no bot; a webhook secret = webhook mode, else long polling. */
  TG_BOT_API_KEY: z.string().default(''),
  TG_WEBHOOK_SECRET: z.string().default(''),
  TG_HTTP_PROXY: z.string().default(''),
  TELEGRAM_API_BASE_URL: z.string().url().default('https://api.telegram.org'),
  /** Admin notifications (api.md §5 notify.*); each target is on when its address is set. */
  NOTIFY_EMAIL_DISABLE: boolFlag,
  NOTIFY_EMAIL_SMTP_TO: z.string().default(''),
  NOTIFY_WECOM_DISABLE: boolFlag,
  NOTIFY_WECOM_WEBHOOK: z.string().default(''),
  NOTIFY_DINGTALK_TOKEN: z.string().default(''),
  NOTIFY_DINGTALK_SECRET: z.string().default(''),
  NOTIFY_DINGTALK_KEYWORD: z.string().default(''),
  NOTIFY_DINGTALK_URL: z.string().url().default('https://oapi.dingtalk.com/robot/send'),
  NOTIFY_LARK_TOKEN: z.string().default(''),
  NOTIFY_LARK_SECRET: z.string().default(''),
  NOTIFY_LARK_KEYWORD: z.string().default(''),
  NOTIFY_LARK_URL: z.string().url().default('https://open.feishu.cn/open-apis/bot/v2/hook'),
  NOTIFY_PUSHDEER_URL: z.string().default('https://api2.pushdeer.com'),
  NOTIFY_PUSHDEER_PUSHKEY: z.string().default(''),
  NOTIFY_TELEGRAM_BOT_API_KEY: z.string().default(''),
  NOTIFY_TELEGRAM_CHAT_ID: z.string().default(''),
  NOTIFY_TELEGRAM_HTTP_PROXY: z.string().default(''),
  NOTIFY_WEBHOOK_URL: z.string().default(''),
  NOTIFY_WEBHOOK_SECRET: z.string().default(''),
  /** Admins are told when a channel's fetched balance falls below this (0 = never). */
  NOTIFY_CHANNEL_BALANCE_THRESHOLD: z.coerce.number().min(0).default(0),
  /** First retry delay of a failed notification (doubles per attempt, 4 attempts). */
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2000),
  /** How often users' low-balance alerts are checked (master node). */
  USER_ALERT_INTERVAL_SECONDS: z.coerce.number().min(0.05).default(60),
  /** Payment providers' API base URLs (sandboxes and tests point them elsewhere). */
  STRIPE_BASE_URL: z.string().url().default('https://api.stripe.com'),
  ALIPAY_BASE_URL: z.string().url().default('https://openapi.alipay.com/gateway.do'),
  WECHATPAY_BASE_URL: z.string().url().default('https://api.mch.weixin.qq.com'),
  /** Async tasks (Midjourney, Suno, Kling, videos): milliseconds between polling rounds while tasks are pending. */
  TASK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(15_000),
  /** A task not finished this many seconds after submission fails and is refunded. */
  TASK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Kling API base URL (tests point it at a fake). */
  KLING_BASE_URL: z.string().default('https://api.klingai.com'),
  /** Scheduled jobs (master only): minutes between automatic channel tests and balance refreshes (0 = off). */
  CHANNEL_TEST_FREQUENCY: z.coerce.number().int().min(0).default(0),
  CHANNEL_UPDATE_FREQUENCY: z.coerce.number().int().min(0).default(0),
  /** Seconds to wait between channels during those runs. */
  POLLING_INTERVAL: z.coerce.number().min(0).default(0),
  /** Remote price sync: on/off, mode (system = built-in list only), minutes between syncs, and the list's URL. */
  AUTO_PRICE_UPDATES: boolFlag,
  AUTO_PRICE_UPDATES_MODE: z.enum(['system', 'add', 'update', 'overwrite']).default('system'),
  AUTO_PRICE_UPDATES_INTERVAL: z.coerce.number().int().min(1).default(1440),
  UPDATE_PRICE_SERVICE: z.string().url().default('https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json'),
});

export type Config = z.infer<typeof EnvSchema>;

/** Parses the environment once; a bad value stops start-up with a readable message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export interface LoadOptions {
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  warn?: (message: string) => void;
}

/** Where a setting came from, for error messages. */
function origin(key: string, flags: Set<string>, env: NodeJS.ProcessEnv, file?: ConfigFile): string {
  if (flags.has(key)) return `--${key.toLowerCase()}`;
  if (env[key] !== undefined || !file?.keys[key]) return key;
  return `${file.path}: ${file.keys[key]}`;
}

/**
 * The start-up configuration (api.md §5): command-line flag > environment > config file
 * (`--config`, CONFIG_FILE or ./config.yaml) > default. Unknown file keys are warned about;
 * an invalid value stops start-up naming the key and where it was set.
 */
export function loadSettings(opts: LoadOptions = {}): Config {
  const argv = opts.argv ?? process.argv.slice(2);
  const env = opts.env ?? process.env;
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const where = configPath(argv, env, opts.cwd ?? process.cwd());
  const file = where ? readConfigFile(where.path) : undefined;
  const known = new Set(Object.keys(EnvSchema.shape));
  const merged: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(file?.values ?? {})) {
    if (known.has(key)) merged[key] = value;
    else warn(`${file!.path}: unknown key ${file!.keys[key]} (ignored)`);
  }
  Object.assign(merged, env);
  const flags = new Set<string>();
  const port = flagValue(argv, 'port');
  if (port !== undefined) {
    merged.PORT = port;
    flags.add('PORT');
  }
  const parsed = EnvSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${origin(String(i.path[0]), flags, env, file)}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
