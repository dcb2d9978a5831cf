import { McpToolPatterns, TOKEN_STATUS, type Token } from '@one-hub/contract';
import { badLimits, limitsToTexts, textsToLimits, type LimitTexts } from '../../components/RequestLimitFields';

/** The token dialog's fields as the user edits them (console-screens §3.7). */
export interface TokenFormState {
  name: string;
  neverExpires: boolean;
  /** `YYYY-MM-DDTHH:mm` text, local time (the date-time picker edits it). */
  expiry: string;
  unlimited: boolean;
  remainQuota: string;
  heartbeat: boolean;
  heartbeatTimeout: string;
  group: string;
  backupGroup: string;
  limitModels: boolean;
  models: string[];
  limitIp: boolean;
  ipText: string;
  billingTag: string;
  /** RPM, TPM, in flight, daily and monthly spending caps. */
  limits: LimitTexts;
  /** MCP allow list: comma-separated `server/tool` patterns ('' = every tool the group may use). */
  mcpTools: string;
  /** Admin edit only: move the token to this user id. */
  transferTo: string;
}

export type TokenFormErrors = Partial<Record<keyof TokenFormState, string>>;

const pad = (n: number) => String(n).padStart(2, '0');
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export function fromLocalInput(text: string): number {
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? NaN : Math.floor(ms / 1000);
}

export function tokenToForm(t?: Token | null, now = Date.now()): TokenFormState {
  const s = t?.setting;
  return {
    name: t?.name ?? '',
    neverExpires: !t || t.expired_time === -1,
    expiry: toLocalInput(t && t.expired_time > 0 ? t.expired_time : Math.floor(now / 1000)),
    unlimited: t ? t.unlimited_quota : true,
    remainQuota: String(t?.remain_quota ?? 0),
    heartbeat: s?.heartbeat.enabled ?? false,
    heartbeatTimeout: String(s?.heartbeat.timeout_seconds || 30),
    group: t?.group ?? '',
    backupGroup: t?.backup_group ?? '',
    limitModels: s?.limits.limit_model_setting.enabled ?? false,
    models: s?.limits.limit_model_setting.models ?? [],
    limitIp: s?.limits.limits_ip_setting.enabled ?? false,
    ipText: (s?.limits.limits_ip_setting.whitelist ?? []).join('\n'),
    billingTag: s?.billing_tag ?? '',
    limits: limitsToTexts(s?.limits.request_limits),
    mcpTools: t?.mcp_tools ?? '',
    transferTo: t ? String(t.user_id) : '',
  };
}

const IP_OR_CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
export const ipLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Field → i18n key of the problem (token namespace). Empty when the form can be sent. */
export function validateTokenForm(f: TokenFormState): TokenFormErrors {
  const e: TokenFormErrors = {};
  if (!f.name.trim()) e.name = 'errors.nameRequired';
  else if (new TextEncoder().encode(f.name.trim()).length > 30) e.name = 'errors.nameTooLong';
  if (!f.neverExpires && Number.isNaN(fromLocalInput(f.expiry))) e.expiry = 'errors.badDate';
  if (!f.unlimited) {
    const q = Number(f.remainQuota);
    if (f.remainQuota.trim() === '' || !Number.isInteger(q) || q < 0) e.remainQuota = 'errors.quota';
  }
  if (f.heartbeat) {
    const s = Number(f.heartbeatTimeout);
    if (!Number.isInteger(s) || s < 30 || s > 90) e.heartbeatTimeout = 'errors.heartbeat';
  }
  if (f.limitIp && ipLines(f.ipText).some((l) => !IP_OR_CIDR.test(l))) e.ipText = 'errors.ip';
  if (badLimits(f.limits).length) e.limits = 'errors.limits';
  if (!McpToolPatterns.safeParse(f.mcpTools).success) e.mcpTools = 'errors.mcpTools';
  if (f.transferTo.trim() && !/^\d+$/.test(f.transferTo.trim())) e.transferTo = 'errors.userId';
  return e;
}

/** The body of POST/PUT /api/token/ (the id is added for edits). */
export function formToBody(f: TokenFormState, withBillingTag: boolean) {
  return {
    name: f.name.trim(),
    expired_time: f.neverExpires ? -1 : fromLocalInput(f.expiry),
    unlimited_quota: f.unlimited,
    remain_quota: f.unlimited ? Number(f.remainQuota) || 0 : Number(f.remainQuota),
    group: f.group,
    backup_group: f.backupGroup === f.group ? '' : f.backupGroup,
    mcp_tools: f.mcpTools.split(',').map((p) => p.trim()).filter(Boolean).join(','),
    setting: {
      heartbeat: { enabled: f.heartbeat, timeout_seconds: f.heartbeat ? Number(f.heartbeatTimeout) : 30 },
      limits: {
        limit_model_setting: { enabled: f.limitModels, models: f.limitModels ? f.models : [] },
        limits_ip_setting: { enabled: f.limitIp, whitelist: f.limitIp ? ipLines(f.ipText) : [] },
        request_limits: textsToLimits(f.limits),
      },
      ...(withBillingTag ? { billing_tag: f.billingTag } : {}),
    },
  };
}

/** What the list's status cell shows: a switch while the token can be switched, else why it cannot work. */
export function tokenState(tk: Pick<Token, 'status' | 'expired_time'>, nowSeconds = Math.floor(Date.now() / 1000)): 'switch' | 'expired' | 'exhausted' {
  if (tk.status === TOKEN_STATUS.expired || (tk.expired_time !== -1 && tk.expired_time <= nowSeconds)) return 'expired';
  if (tk.status === TOKEN_STATUS.exhausted) return 'exhausted';
  return 'switch';
}
