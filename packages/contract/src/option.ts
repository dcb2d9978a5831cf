import { z } from 'zod';
import { text } from './format/text.js';
import { CaptureRules } from './log.js';

/**
 * Runtime options (api.md §4). Storage is text; `kind` says how the text is read.
 * `secret` options are never returned by GET /api/option/ and a blank value
 * sent back for them leaves them unchanged.
 */
export type OptionKind = 'bool' | 'int' | 'float' | 'string' | 'text' | 'json';

export interface OptionDef {
  kind: OptionKind;
  default: string;
  secret?: boolean;
  /** Bounds of numeric options; an int without them must still be a safe integer (|v| ≤ 2^53 − 1). */
  min?: number;
  max?: number;
}

/** Largest quota anywhere: beyond 2^53 − 1 integers lose precision in JavaScript and JSON clients. */
export const MAX_QUOTA = Number.MAX_SAFE_INTEGER;
const quota = { min: 0, max: MAX_QUOTA };
const DAY = 86_400;

export const OPTION_DEFS = {
  // General
  SystemName: { kind: 'string', default: 'One Hub' },
  Logo: { kind: 'string', default: '' },
  Footer: { kind: 'text', default: '' },
  Notice: { kind: 'text', default: '' },
  About: { kind: 'text', default: '' },
  HomePageContent: { kind: 'text', default: '' },
  AnalyticsCode: { kind: 'text', default: '' },
  ServerAddress: { kind: 'string', default: 'http://localhost:3000' },
  DisplayInCurrencyEnabled: { kind: 'bool', default: 'true' },
  TopUpLink: { kind: 'string', default: '' },
  // Registration and login
  PasswordLoginEnabled: { kind: 'bool', default: 'true' },
  PasswordRegisterEnabled: { kind: 'bool', default: 'true' },
  RegisterEnabled: { kind: 'bool', default: 'true' },
  EmailVerificationEnabled: { kind: 'bool', default: 'false' },
  EmailDomainRestrictionEnabled: { kind: 'bool', default: 'false' },
  EmailDomainWhitelist: {
    kind: 'string',
    default: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  },
  TurnstileCheckEnabled: { kind: 'bool', default: 'false' },
  TurnstileSiteKey: { kind: 'string', default: '' },
  TurnstileSecretKey: { kind: 'string', default: '', secret: true },
  // OAuth
  GitHubOAuthEnabled: { kind: 'bool', default: 'false' },
  GitHubClientId: { kind: 'string', default: '' },
  GitHubClientSecret: { kind: 'string', default: '', secret: true },
  GitHubOldIdCloseEnabled: { kind: 'bool', default: 'false' },
  WeChatAuthEnabled: { kind: 'bool', default: 'false' },
  WeChatServerAddress: { kind: 'string', default: '' },
  WeChatServerToken: { kind: 'string', default: '', secret: true },
  WeChatAccountQRCodeImageURL: { kind: 'string', default: '' },
  LarkAuthEnabled: { kind: 'bool', default: 'false' },
  // Registered here (unlike the original), so Lark login can actually be configured.
  LarkClientId: { kind: 'string', default: '' },
  LarkClientSecret: { kind: 'string', default: '', secret: true },
  OIDCAuthEnabled: { kind: 'bool', default: 'false' },
  OIDCClientId: { kind: 'string', default: '' },
  OIDCClientSecret: { kind: 'string', default: '', secret: true },
  OIDCIssuer: { kind: 'string', default: '' },
  OIDCScopes: { kind: 'string', default: '' },
  OIDCUsernameClaims: { kind: 'string', default: '' },
  // Ours: LINUX DO Connect sign-in (OAuth2), with an optional minimum forum trust level.
  LinuxDoOAuthEnabled: { kind: 'bool', default: 'false' },
  LinuxDoClientId: { kind: 'string', default: '' },
  LinuxDoClientSecret: { kind: 'string', default: '', secret: true },
  LinuxDoMinTrustLevel: { kind: 'int', default: '0', min: 0, max: 4 },
  // Ours: administrators and root must have two-factor (TOTP) on to use admin routes.
  TwoFactorRequiredForAdmins: { kind: 'bool', default: 'false' },
  // Quota and billing
  QuotaPerUnit: { kind: 'float', default: '500000', min: 0.000001, max: 1e12 },
  QuotaForNewUser: { kind: 'int', default: '0', ...quota },
  // Ours: the subscription plan every new user gets (plan id; 0 = none).
  DefaultPlanId: { kind: 'int', default: '0', min: 0, max: 1e12 },
  QuotaForInviter: { kind: 'int', default: '0', ...quota },
  QuotaForInvitee: { kind: 'int', default: '0', ...quota },
  PreConsumedQuota: { kind: 'int', default: '500', ...quota },
  /** Output tokens held for a request without max_tokens whose model has no known limit. */
  DefaultMaxOutputTokens: { kind: 'int', default: '8192', min: 1, max: 10_000_000 },
  /** A request whose worst case the balance cannot cover is served with max_tokens lowered to what it covers (else refused). */
  LowerMaxTokensToBalance: { kind: 'bool', default: 'false' },
  QuotaRemindThreshold: { kind: 'int', default: '1000', ...quota },
  LogConsumeEnabled: { kind: 'bool', default: 'true' },
  LogErrorEnabled: { kind: 'bool', default: 'true' },
  ApproximateTokenEnabled: { kind: 'bool', default: 'false' },
  // Channel management
  AutomaticDisableChannelEnabled: { kind: 'bool', default: 'false' },
  AutomaticEnableChannelEnabled: { kind: 'bool', default: 'false' },
  ChannelDisableThreshold: { kind: 'float', default: '5', min: 0, max: 3600 },
  DisableChannelKeywords: { kind: 'text', default: 'Your credit balance is too low\nThis organization has been disabled.\nYou exceeded your current quota\nPermission denied\nQuota exceeded for quota metric\nAPI key not valid\nThe security token included in the request is invalid\nOperation not allowed\nYour account is not authorized\nyour account balance is insufficient\nYour account is currently blocked\ntoo many invalid requests' },
  // Relay
  RetryTimes: { kind: 'int', default: '0', min: 0, max: 10 },
  RetryCooldownSeconds: { kind: 'int', default: '5', min: 0, max: DAY },
  RetryTimeOut: { kind: 'int', default: '10', min: 0, max: 3600 },
  // Ours: a stream that sends nothing for this many seconds is cut (between bytes, not in total); 0 = never.
  StreamIdleTimeoutSeconds: { kind: 'int', default: '300', min: 0, max: DAY },
  // Ours: an upstream attempt that has sent no byte (headers or body) after this many seconds fails over; 0 = no limit.
  FirstByteTimeoutSeconds: { kind: 'int', default: '60', min: 0, max: DAY },
  // Ours: requests one user may have in flight on one node; one more gets a 429; 0 = no limit.
  UserMaxInflight: { kind: 'int', default: '128', min: 0, max: 1_000_000 },
  GeminiAPIEnabled: { kind: 'bool', default: 'true' },
  // Ours: Responses WebSocket mode (GET /v1/responses with Upgrade); off answers the upgrade 426 so clients fall back to HTTP.
  ResponsesWebSocketEnabled: { kind: 'bool', default: 'true' },
  // Ours: a Responses WebSocket with no response running and no client message for this long is closed.
  ResponsesWebSocketIdleSeconds: { kind: 'int', default: '120', min: 1, max: DAY },
  ClaudeAPIEnabled: { kind: 'bool', default: 'true' },
  ClaudeDefaultMaxTokens: { kind: 'json', default: '{"default":8192}' },
  ClaudeBudgetTokensPercentage: { kind: 'float', default: '0.8', min: 0, max: 1 },
  // Ours: count_tokens asks an Anthropic channel for the exact count, counting locally when that fails.
  ClaudeCountTokensForward: { kind: 'bool', default: 'true' },
  GeminiOpenThink: { kind: 'json', default: '{}' },
  // Hours a response converted for a non-OpenAI channel is kept for previous_response_id; 0 keeps none.
  ResponsesRetentionHours: { kind: 'int', default: '72', min: 0, max: 24 * 365 },
  // Seconds an agent session stays on the channel that served it (conversation-sticky routing); 0 turns it off.
  StickySessionTTLSeconds: { kind: 'int', default: '3600', min: 0, max: 30 * DAY },
  MjNotifyEnabled: { kind: 'bool', default: 'false' },
  ChatImageRequestProxy: { kind: 'string', default: '' },
  CFWorkerImageUrl: { kind: 'string', default: '' },
  CFWorkerImageKey: { kind: 'string', default: '', secret: true },
  // Payment
  PaymentUSDRate: { kind: 'float', default: '7.3', min: 0.000001, max: 1e6 },
  PaymentMinAmount: { kind: 'int', default: '1', min: 1, max: 1_000_000 },
  RechargeDiscount: { kind: 'json', default: '' },
  // Mail
  SMTPServer: { kind: 'string', default: '' },
  SMTPPort: { kind: 'int', default: '587', min: 1, max: 65_535 },
  SMTPAccount: { kind: 'string', default: '' },
  SMTPFrom: { kind: 'string', default: '' },
  SMTPToken: { kind: 'string', default: '', secret: true },
  // Ours (as new-api): implicit TLS on a port other than 465; port 465 always uses it, others STARTTLS.
  SMTPSSLEnabled: { kind: 'bool', default: 'false' },
  // Chat links
  ChatLink: { kind: 'string', default: '' },
  ChatLinks: { kind: 'json', default: '' },
  // Safety
  EnableSafe: { kind: 'bool', default: 'false' },
  SafeToolName: { kind: 'string', default: 'Keyword' },
  SafeKeyWords: { kind: 'text', default: '' },
  // Ours: let server-side fetches to admin-typed addresses (channels, proxies, WeChat server) reach loopback and private networks.
  FetchAllowPrivateNetworks: { kind: 'bool', default: 'false' },
  // Misc
  OldTokenMaxId: { kind: 'int', default: '0', min: 0 },
  // Ours: admin audit log rows older than this many days are deleted (0 = kept forever).
  AuditLogRetentionDays: { kind: 'int', default: '365', min: 0, max: 36_500 },
  // Ours: opt-in capture of relay request/response bodies (capture.ts): JSON array of {kind: user|token|channel, id, until (unix s)}.
  LogCaptureRules: { kind: 'json', default: '[]' },
  // Ours: extra regular expressions (one per line) whose matches are redacted from captured bodies.
  LogCaptureRedactPatterns: { kind: 'text', default: '' },
  // Ours: each captured body is cut to this many bytes.
  LogCaptureMaxBytes: { kind: 'int', default: '16384', min: 1024, max: 1_048_576 },
  // Ours: captured bodies older than this many days are deleted.
  LogCaptureRetentionDays: { kind: 'int', default: '7', min: 1, max: 365 },
  // Ours: scheduled jobs (jobs.ts). Log rows older than this many days are deleted daily; 0 keeps them all.
  LogRetentionDays: { kind: 'int', default: '0', min: 0, max: 36_500 },
  // Ours: comma-separated names of scheduled jobs switched off by root.
  DisabledJobs: { kind: 'string', default: '' },
} as const satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTION_DEFS;

type ValueOf<K extends OptionKind> = K extends 'bool' ? boolean : K extends 'int' | 'float' ? number : string;
export type OptionValue<K extends OptionKey> = ValueOf<(typeof OPTION_DEFS)[K]['kind']>;
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

export function isOptionKey(key: string): key is OptionKey {
  return Object.prototype.hasOwnProperty.call(OPTION_DEFS, key);
}

function outOfBounds(key: string, def: OptionDef, value: number): string | null {
  if (def.min !== undefined && value < def.min) return `${key} must be at least ${def.min}`;
  if (def.max !== undefined && value > def.max) return `${key} must be at most ${def.max}`;
  return null;
}

/** Checks the text form of a value against its kind and bounds; answers an error message or null. */
export function checkOptionText(key: OptionKey, text: string): string | null {
  const def: OptionDef = OPTION_DEFS[key];
  switch (def.kind) {
    case 'bool':
      return text === 'true' || text === 'false' ? null : `${key} must be true or false`;
    case 'int':
      if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text))) return `${key} must be an integer`;
      return outOfBounds(key, def, Number(text));
    case 'float':
      if (text.trim() === '' || !Number.isFinite(Number(text))) return `${key} must be a number`;
      return outOfBounds(key, def, Number(text));
    case 'json':
      if (text.trim() === '') return null;
      try {
        const value: unknown = JSON.parse(text);
        if (key !== 'LogCaptureRules') return null;
        const rules = CaptureRules.safeParse(value);
        return rules.success ? null : `LogCaptureRules: ${rules.error.issues[0]?.path.join('.')} ${rules.error.issues[0]?.message}`;
      } catch {
        return `${key} must be valid JSON`;
      }
    default:
      return null;
  }
}

export function readOptionText<K extends OptionKey>(key: K, text: string): OptionValue<K> {
  const def: OptionDef = OPTION_DEFS[key];
  switch (def.kind) {
    case 'bool':
      return (text === 'true') as OptionValue<K>;
    case 'int':
      return parseInt(text, 10) as OptionValue<K>;
    case 'float':
      return Number(text) as OptionValue<K>;
    default:
      return text as OptionValue<K>;
  }
}

/** `PUT /api/option/` body: one key and its value (booleans and numbers accepted as such). */
export const OptionUpdate = z.object({
  key: text().min(1).max(100),
  value: z.union([text(), z.number(), z.boolean()]).transform((v) => String(v)),
});
export type OptionUpdate = z.infer<typeof OptionUpdate>;

/** POST /api/system_info/log and /api/option/system_info/log: how many recent server log lines. */
export const SystemLogRequest = z.object({
  count: z.coerce.number({ error: 'count must be a positive integer' }).int('count must be a positive integer').min(1, 'count must be a positive integer'),
});

/** One server log line (the original's capitalised keys). */
export interface SystemLogEntry {
  Timestamp: string;
  Level: string;
  Message: string;
}
