import { z } from 'zod';
import { ConfigError, configPath, flagValue, readConfigFile, type ConfigFile } from './file.js';

const boolFlag = z
  .string()
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('HTTP port for the console, `/api` and the relay (the `--port` flag overrides it)'),
  HOST: z.string().default('0.0.0.0').describe('listen address'),
  SQLITE_PATH: z.string().default('./data/one-hub.db').describe('SQLite file (used when `SQL_DSN` is empty)'),
  SQL_DSN: z.string().optional().describe("`postgres://user:pass@host:5432/db`, `mysql://user:pass@host:3306/db` or the original's `user:pass@tcp(host:3306)/db`; empty: SQLite"),
  DB_CONNECT_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(60).describe('seconds a start-up keeps retrying (with backoff) a database server that does not answer yet (see deployment.md, "When Redis or the database is unreachable")'),
  REDIS_CONN_STRING: z.string().optional().describe('`redis://…`: shared cache, rate limits and change notifications across nodes; without it everything is in memory; while it is unreachable the node serves on in a degraded mode'),
  REDIS_KEY_PREFIX: z.string().default('').describe('prefix for every Redis key and channel, so several installs (or test runs) can share one Redis'),
  SESSION_SECRET: z.string().optional().describe('signs the session cookie; when absent one is generated and kept in `DATA_DIR/session_secret`, so sessions survive restarts'),
  SESSION_SECURE_COOKIE: boolFlag.describe('always mark the session cookie `Secure`; set it behind a TLS-terminating proxy when `TRUST_PROXY` is off (otherwise the flag follows the request\'s protocol)'),
  INITIAL_ROOT_PASSWORD: z.string().optional().describe("the root user's password on first start (automation); unset, the log shows a one-time `/setup?token=…` link instead (one hour, or until used)"),
  NODE_TYPE: z.enum(['master', 'slave']).default('master').describe('`master` runs the periodic jobs (scheduled jobs, task polling, the Telegram bot); `slave` nodes only serve'),
  WORKERS: z
    .string()
    .regex(/^(auto|[1-9]\d?)$/, 'a number from 1 to 99, or auto')
    .default('1')
    .describe('processes serving this node on its one port: a number, or `auto` for one per core; on a SQLite file or a database server, with Redis or without (then the primary process holds the shared limits and caches); not on an in-memory SQLite database (see deployment.md, "Worker processes")'),
  SYNC_FREQUENCY: z.coerce.number().int().min(1).default(600).describe('seconds between full cache re-syncs from the database'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('log level'),
  DATA_DIR: z.string().default('./data').describe('where the generated session secret lives'),
  WEB_DIST: z.string().optional().describe('folder of the built console (default `apps/web/dist`)'),
  LANGUAGE: z.string().default('zh_CN').describe('default console language reported by `/api/status` (`zh_CN`, `zh_HK`, `en_US`, `ja_JP`)'),
  TRUST_PROXY: boolFlag.describe('take the client IP from `X-Forwarded-For` (behind a reverse proxy)'),
  GLOBAL_API_RATE_LIMIT: z.coerce.number().int().min(0).default(300).describe('requests per 180 s per client IP on `/api` (0 = off); an empty 429 when exceeded'),
  CRITICAL_RATE_LIMIT: z.coerce.number().int().min(0).default(20).describe('requests per 20 min per client IP, one counter shared by login, register, verification, password reset and OAuth (0 = off)'),
  TURNSTILE_VERIFY_URL: z.string().default('https://challenges.cloudflare.com/turnstile/v0/siteverify').describe('Turnstile verification endpoint (tests point it at a fake)'),
  GITHUB_BASE_URL: z.string().default('https://github.com').describe('GitHub sign-in: the host of the token exchange (`/login/oauth/access_token`; tests point it at a fake)'),
  GITHUB_API_BASE_URL: z.string().default('https://api.github.com').describe("GitHub sign-in: the REST API's host (tests point it at a fake)"),
  LARK_BASE_URL: z.string().default('https://open.feishu.cn').describe('Lark / Feishu sign-in API'),
  LINUXDO_BASE_URL: z.string().default('https://connect.linux.do').describe('LINUX DO Connect (`/oauth2/token`, `/api/user`)'),
  SMTP_CA_FILE: z.string().default('').describe("PEM file of extra certificate authorities trusted for the SMTP server's certificate (a private CA), beside the system's; `NODE_EXTRA_CA_CERTS` works too, for the whole process. The certificate is always verified"),
  MCP_ALLOW_STDIO: boolFlag.describe('MCP gateway: allow admins to register stdio MCP servers (a command the gateway runs); off by default'),
  MCP_MAX_RESULT_BYTES: z.coerce.number().int().min(1024).default(4 * 1024 * 1024).describe('MCP gateway: largest upstream answer (bytes) read for one call; a larger one is refused'),
  MCP_REFRESH_MINUTES: z.coerce.number().int().min(0).default(10).describe('MCP gateway: minutes between catalogue refreshes of every enabled server (0 = only on demand)'),
  BATCH_FLUSH_MS: z.coerce.number().int().min(10).default(1000).describe('how often batched log rows and counters are written (sooner whenever 256 log rows are waiting)'),
  QUOTA_LEASE_TTL_SECONDS: z.coerce.number().int().min(3).max(3600).default(60).describe("quota leases (see billing.md): a node renews its slices every third of this; a crashed node's slices go back to the balances this long after its last renewal"),
  QUOTA_LEASE_SLICE_SECONDS: z.coerce.number().min(0.1).max(60).default(2).describe("a slice of a balance covers this many seconds of its recent demand (at least four holds, and every hold waiting for it)"),
  QUOTA_LEASE_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(5).describe('a slice unused this long goes back to the balance'),
  QUOTA_LEASE_KEEP_SECONDS: z.coerce.number().int().min(1).max(86400).default(600).describe('an idle slice the balance column still covered is kept this long (back sooner when another node finds the balance short)'),
  UPTIME_KUMA_ENABLE: boolFlag.describe('show the Uptime Kuma status tab and link on the dashboard'),
  UPTIME_KUMA_DOMAIN: z.string().default('').describe('Uptime Kuma base URL; the dashboard reads its public status-page API through the server'),
  UPTIME_KUMA_STATUS_PAGE_NAME: z.string().default('').describe('the Uptime Kuma status page slug'),
  RELEASE_FEED_URL: z
    .string()
    .default('')
    .describe("this project's release feed (GitHub-style latest-release JSON: `tag_name`, `body`, `html_url`), read by the server for *Settings → Other → Check update* (`GET /api/option/release/latest`, root); empty hides the button (the project publishes no feed yet)"),
  METRICS_USER: z.string().default('').describe('HTTP Basic user of `GET /api/metrics` (Prometheus: requests by route, upstream attempts by channel and model, unexpected errors, process figures and the operator series); without both user and password it answers 404 and nothing is recorded (no per-request cost)'),
  METRICS_PASSWORD: z.string().default('').describe('HTTP Basic password of `GET /api/metrics` (see `METRICS_USER`)'),
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(20).describe("how far (%) the JavaScript heap may grow past what survived its last full collection before collecting again; keeps memory near the live size under bursts (0 = V8's default, which lets garbage pile up to 2–4× the live heap). Applied on Node 20 and 22 only: on Node 24's V8 the flag showed no effect"),
  USER_INVOICE_MONTH: boolFlag.describe('monthly bills: the master bills last month at start-up and daily at 04:00, and the console shows the bill screen; root can (re)generate any past month at any time'),
  TG_BOT_API_KEY: z.string().default('').describe('Telegram bot token; the master node runs the bot (empty = no bot)'),
  TG_WEBHOOK_SECRET: z.string().default('').describe("set: webhook mode at `{ServerAddress}/api/telegram/{bot key}` with this as Telegram's secret token (letters, digits, `_`, `-`); empty: long polling"),
  TG_HTTP_PROXY: z.string().default('').describe('`http(s)://` or `socks5://` proxy for the bot'),
  TELEGRAM_API_BASE_URL: z.string().url().default('https://api.telegram.org').describe('Bot API server (a local Bot API server, or a fake in tests); also used by the Telegram notification target'),
  NOTIFY_EMAIL_DISABLE: boolFlag.describe('turn off admin notifications by e-mail (on while SMTP is configured)'),
  NOTIFY_EMAIL_SMTP_TO: z.string().default('').describe("recipient of admin notification mails (empty: root's e-mail)"),
  NOTIFY_WECOM_DISABLE: boolFlag.describe('turn off the WeCom robot target'),
  NOTIFY_WECOM_WEBHOOK: z.string().default('').describe('WeCom robot: its full webhook URL with the key'),
  NOTIFY_DINGTALK_TOKEN: z.string().default('').describe('DingTalk robot access token'),
  NOTIFY_DINGTALK_SECRET: z.string().default('').describe('DingTalk robot signing secret (or use a keyword)'),
  NOTIFY_DINGTALK_KEYWORD: z.string().default('').describe('DingTalk robot keyword (instead of a signing secret)'),
  NOTIFY_DINGTALK_URL: z.string().url().default('https://oapi.dingtalk.com/robot/send').describe('DingTalk robot endpoint'),
  NOTIFY_LARK_TOKEN: z.string().default('').describe('Feishu/Lark robot token'),
  NOTIFY_LARK_SECRET: z.string().default('').describe('Feishu/Lark robot signing secret (or use a keyword)'),
  NOTIFY_LARK_KEYWORD: z.string().default('').describe('Feishu/Lark robot keyword (instead of a signing secret)'),
  NOTIFY_LARK_URL: z.string().url().default('https://open.feishu.cn/open-apis/bot/v2/hook').describe('Feishu/Lark robot endpoint (the token is appended); `https://open.larksuite.com/open-apis/bot/v2/hook` for Lark'),
  NOTIFY_PUSHDEER_URL: z.string().default('https://api2.pushdeer.com').describe('PushDeer server'),
  NOTIFY_PUSHDEER_PUSHKEY: z.string().default('').describe('PushDeer push key (empty = no PushDeer target)'),
  NOTIFY_TELEGRAM_BOT_API_KEY: z.string().default('').describe('admin notifications to a Telegram chat: the bot token (any bot)'),
  NOTIFY_TELEGRAM_CHAT_ID: z.string().default('').describe('admin notifications to a Telegram chat: the chat id'),
  NOTIFY_TELEGRAM_HTTP_PROXY: z.string().default('').describe('proxy for the Telegram notification target'),
  NOTIFY_WEBHOOK_URL: z.string().default('').describe('generic JSON webhook for admin notifications'),
  NOTIFY_WEBHOOK_SECRET: z.string().default('').describe('signs the generic webhook when set'),
  NOTIFY_CHANNEL_BALANCE_THRESHOLD: z.coerce.number().min(0).default(0).describe("tell the admins when a channel's fetched balance falls below this (0 = never)"),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2000).describe('first retry delay of a failed notification (doubling, 4 attempts)'),
  USER_ALERT_INTERVAL_SECONDS: z.coerce.number().min(0.05).default(60).describe("how often users' own low-balance alerts are checked (master node)"),
  STRIPE_BASE_URL: z.string().url().default('https://api.stripe.com').describe('Stripe API base (host, port and protocol are given to the official client)'),
  ALIPAY_BASE_URL: z.string().url().default('https://openapi.alipay.com/gateway.do').describe('Alipay open-platform gateway (the sandbox is `https://openapi-sandbox.dl.alipaydev.com/gateway.do`)'),
  WECHATPAY_BASE_URL: z.string().url().default('https://api.mch.weixin.qq.com').describe('WeChat Pay API v3 base'),
  TASK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(15_000).describe('async tasks (Midjourney, Suno, Kling, videos), Anthropic Message Batches and background Responses: milliseconds between polling rounds while any are pending (master node only)'),
  TASK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(3600).describe('an async task unfinished this long after submission fails and is refunded'),
  KLING_BASE_URL: z.string().default('https://api.klingai.com').describe('Kling API base for channels without a base URL'),
  CHANNEL_TEST_FREQUENCY: z.coerce.number().int().min(0).default(0).describe('minutes between automatic tests of every enabled and auto-disabled channel (0 = off; master only, see monitoring.md "Scheduled jobs")'),
  CHANNEL_UPDATE_FREQUENCY: z.coerce.number().int().min(0).default(0).describe('minutes between balance refreshes of channels whose provider reports one (0 = off; master only)'),
  POLLING_INTERVAL: z.coerce.number().min(0).default(0).describe('seconds to wait between channels during those runs'),
  AUTO_PRICE_UPDATES: boolFlag.describe('with a mode other than `system`, sync prices from `UPDATE_PRICE_SERVICE` every `AUTO_PRICE_UPDATES_INTERVAL` minutes'),
  AUTO_PRICE_UPDATES_MODE: z
    .enum(['system', 'add', 'update', 'overwrite'])
    .default('system')
    .describe('`system` (built-in list only), `add` (missing models), `update` (replace unlocked), `overwrite` (drop unlocked, insert all); locked prices are never touched'),
  AUTO_PRICE_UPDATES_INTERVAL: z.coerce.number().int().min(1).default(1440).describe('minutes between remote price syncs'),
  UPDATE_PRICE_SERVICE: z
    .string()
    .url()
    .default('https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json')
    .describe("remote price list: a JSON array of prices or `{data: [...]}`; also the default URL of the console's price sync"),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .optional()
    .describe('OTLP collector base URL (over HTTP spans go to <url>/v1/traces; over gRPC the URL is the address); setting it turns tracing on'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .string()
    .url()
    .optional()
    .describe('Full OTLP traces URL, used as given (wins over OTEL_EXPORTER_OTLP_ENDPOINT); setting it turns tracing on'),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .default('http/protobuf')
    .describe('OTLP transport: `http/protobuf` (the OpenTelemetry default), `http/json`, or `grpc` (the endpoint is then the collector\'s gRPC address, e.g. http://127.0.0.1:4317, used as given)'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .optional()
    .describe('OTLP transport of traces, wins over OTEL_EXPORTER_OTLP_PROTOCOL'),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .default('')
    .describe('Headers sent with every export, as key=value pairs separated by commas (e.g. an API key of the tracing backend)'),
  OTEL_SERVICE_NAME: z.string().min(1).default('one-hub').describe('service.name of the exported spans'),
  OTEL_SAMPLE_RATIO: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('Share of relay requests traced, 0 to 1 (parent-based: a caller\'s sampled traceparent is followed)'),
  OTEL_CAPTURE_CONTENT: boolFlag.describe('Also record prompt and answer content in spans (gen_ai.input.messages, gen_ai.output.messages); off by default'),
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
