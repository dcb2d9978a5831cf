import type { LogEntry } from '@one-hub/contract';

export type ChipTone = 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' | 'error' | 'orange';

/** Log types of the tabs and the type chip (console-screens §3.4). */
export const LOG_TYPES = [
  { value: 0, key: 'all', tone: 'default' },
  { value: 1, key: 'topup', tone: 'primary' },
  { value: 2, key: 'consume', tone: 'orange' },
  { value: 3, key: 'manage', tone: 'default' },
  { value: 4, key: 'system', tone: 'secondary' },
  // Failed requests (LogErrorEnabled): a user sees their own with the generic reason, administrators upstream's text.
  { value: 5, key: 'error', tone: 'error' },
] as const satisfies ReadonlyArray<{ value: number; key: string; tone: ChipTone }>;

export const logType = (type: number) => LOG_TYPES.find((t) => t.value === type);

/** Total seconds: 0 plain, ≤10 green, ≤50 primary, ≤100 secondary, slower red. */
export function durationTone(seconds: number): ChipTone {
  if (seconds <= 0) return 'default';
  if (seconds <= 10) return 'success';
  if (seconds <= 50) return 'primary';
  if (seconds <= 100) return 'secondary';
  return 'error';
}

/**
 * Output tokens per second of generation: completion tokens ÷ (total − first response).
 * Null when there is nothing to measure (no output or no time after the first byte).
 */
export function tokensPerSecond(completionTokens: number, totalMs: number, firstResponseMs = 0): number | null {
  const generating = (totalMs - (firstResponseMs > 0 && firstResponseMs < totalMs ? firstResponseMs : 0)) / 1000;
  if (completionTokens <= 0 || generating <= 0) return null;
  return completionTokens / generating;
}

/** Speed chip: ≤10 red, ≤15 secondary, ≤20 primary, faster green. */
export function speedTone(tps: number): ChipTone {
  if (tps <= 10) return 'error';
  if (tps <= 15) return 'secondary';
  if (tps <= 20) return 'primary';
  return 'success';
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);

/** Extra token kinds kept in metadata, and which side of the bill they count on. */
export const EXTRA_TOKEN_KINDS = [
  { key: 'input_text_tokens', side: 'input' },
  { key: 'output_text_tokens', side: 'input' },
  { key: 'input_audio_tokens', side: 'input' },
  { key: 'output_audio_tokens', side: 'output' },
  { key: 'cached_tokens', side: 'input' },
  { key: 'cached_write_tokens', side: 'input' },
  { key: 'cached_write_1h_tokens', side: 'input' },
  { key: 'cached_read_tokens', side: 'input' },
  { key: 'reasoning_tokens', side: 'output' },
  { key: 'input_image_tokens', side: 'input' },
  { key: 'output_image_tokens', side: 'output' },
] as const;

export interface ExtraTokens {
  key: (typeof EXTRA_TOKEN_KINDS)[number]['key'];
  side: 'input' | 'output';
  value: number;
  /** Price ratio of this kind relative to ordinary tokens, when the row recorded one. */
  ratio?: number;
}

export function extraTokens(meta: Record<string, unknown> | null): ExtraTokens[] {
  if (!meta) return [];
  const ratios = (meta.extra_ratios ?? {}) as Record<string, unknown>;
  return EXTRA_TOKEN_KINDS.filter((k) => num(meta[k.key]) > 0).map((k) => {
    const r = ratios[k.key.replace(/_tokens$/, '')];
    return { key: k.key, side: k.side, value: num(meta[k.key]), ...(r !== undefined ? { ratio: num(r) } : {}) };
  });
}

export interface LogPricing {
  type: 'tokens' | 'times';
  groupName: string;
  backupGroup?: string;
  groupRatio: number;
  /** Dollars per million tokens (tokens) or per call (times), before the group ratio. */
  input: number;
  output: number;
  /** The same after the group ratio. */
  actualInput: number;
  actualOutput: number;
  /** The input-size tier that priced the request (`> 200000`), when the price has tiers. */
  tier?: string;
  /** The service tier that applied (reported by the upstream, else requested), when one was named. */
  serviceTier?: string;
  /** Anthropic fast mode applied. */
  fast?: boolean;
  /** The multiplier the service class put on the whole price (1 when none). */
  serviceRatio: number;
}

/** Prices of a consumption row from its metadata: ratio × 0.002 per call, ratio × 0.002 × 1000 per million tokens. */
export function logPricing(log: Pick<LogEntry, 'metadata' | 'group'>): LogPricing | null {
  const meta = log.metadata;
  if (!meta || meta.input_ratio === undefined) return null;
  const type = meta.price_type === 'times' ? 'times' : 'tokens';
  const groupRatio = meta.group_ratio === undefined ? 1 : num(meta.group_ratio);
  // a ratio is quota per token (or per call ÷ 1000); 1 quota = $0.000002
  const unit = type === 'tokens' ? 0.002 * 1000 : 0.002;
  const input = num(meta.input_ratio) * unit;
  const output = num(meta.output_ratio) * unit;
  const serviceRatio = meta.service_ratio === undefined ? 1 : num(meta.service_ratio);
  return {
    type,
    groupName: String(meta.group_name ?? log.group ?? ''),
    backupGroup: meta.is_backup_group ? String(meta.backup_group_name ?? '') : undefined,
    groupRatio,
    input,
    output,
    actualInput: input * groupRatio * serviceRatio,
    actualOutput: output * groupRatio * serviceRatio,
    ...(typeof meta.price_tier === 'string' && meta.price_tier ? { tier: meta.price_tier } : {}),
    ...(typeof meta.service_tier === 'string' && meta.service_tier ? { serviceTier: meta.service_tier } : {}),
    ...(meta.speed === 'fast' ? { fast: true } : {}),
    serviceRatio,
  };
}

/** Cost in dollars before the group ratio (the struck-through figure) and the saving in percent. */
export function discount(quota: number, groupRatio: number, quotaPerUnit: number): { original: number; actual: number; savedPercent: number } | null {
  if (!(groupRatio > 0 && groupRatio < 1)) return null;
  const actual = quota / quotaPerUnit;
  return { original: actual / groupRatio, actual, savedPercent: Math.round((1 - groupRatio) * 100) };
}

export interface RequestRoute {
  /** Front door the request came in by (`/v1/messages`, `/v1beta` …). */
  door: string;
  /** Dialect the request was converted into (administrators only). */
  convertedTo?: string;
  /** Upstream reported no usage, so the tokens were counted by the gateway. */
  estimated: boolean;
}

/** How a relay request travelled, from a consumption row; null for rows written before doors were logged. */
export function requestRoute(log: Pick<LogEntry, 'metadata' | 'estimated'>): RequestRoute | null {
  const meta = log.metadata ?? {};
  if (typeof meta.door !== 'string') return null;
  return {
    door: meta.door,
    ...(typeof meta.converted_to === 'string' ? { convertedTo: meta.converted_to } : {}),
    estimated: meta.usage_source === 'estimated' || log.estimated === true,
  };
}
