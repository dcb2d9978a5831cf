import type { ServiceRatioClass } from '@one-hub/contract';
import type { Usage } from '../../providers/types.js';

/** One input-size tier of a token price: applies when the prompt has more than `above` tokens (cache ratios not set fall back to the base price's). */
export interface PriceTier {
  above: number;
  input: number;
  output: number;
  extra: Partial<Record<ExtraClass, number>>;
}

export interface Price {
  type: 'tokens' | 'times';
  input: number;
  output: number;
  extra: Partial<Record<ExtraClass, number>>;
  /** Long-context tiers, ascending by `above`; the base price covers prompts up to the first. */
  tiers?: PriceTier[];
  /** Multipliers by service tier and for fast mode (service.ts); a class not set bills ×1. */
  service?: Partial<Record<ServiceRatioClass, number>>;
  /** The service multiplier this price is applied at (one request's, see service.ts); 1 when absent. */
  scale?: number;
}

export type ExtraClass =
  | 'cached_tokens'
  | 'cached_read_tokens'
  | 'cached_write_tokens'
  | 'cached_write_1h_tokens'
  | 'reasoning_tokens'
  | 'input_audio_tokens'
  | 'output_audio_tokens';

/**
 * Re-price multipliers for usage classes that are already counted inside the
 * prompt or completion totals. Cache reads are cheaper than fresh input by
 * default (billing them at full price is a known gateway bug).
 */
export const DEFAULT_EXTRA: Record<ExtraClass, number> = {
  cached_tokens: 0.5,
  cached_read_tokens: 0.1,
  cached_write_tokens: 1.25,
  cached_write_1h_tokens: 2,
  reasoning_tokens: 1,
  input_audio_tokens: 1,
  output_audio_tokens: 1,
};

/**
 * Ratios are decimals an admin typed (0.075, 1.1); money is integers of quota. Every ratio is
 * read as an exact count of billionths and the arithmetic is done on integers (BigInt), so
 * 3 × 0.1 is 0.3 and a million requests add up to exactly their closed form.
 */
const SCALE = 1_000_000_000n;
const SCALE2 = SCALE * SCALE;
const SCALE3 = SCALE2 * SCALE;
/** Billionths of every ratio seen, kept: ratios are few (prices, groups, multipliers) and BigInt conversion is not free. */
const micros = new Map<number, bigint>();
const micro = (x: number): bigint => {
  let m = micros.get(x);
  if (m === undefined) {
    m = BigInt(Math.round(Math.max(x, 0) * 1e9));
    if (micros.size > 4096) micros.clear();
    micros.set(x, m);
  }
  return m;
};
/** The group ratio times the price's service multiplier and the denominator the product is read against. */
interface Factor {
  g: bigint;
  denom: bigint;
}
/** Without a service multiplier (the usual case) two ratios meet, not three: the same exact value, smaller integers. */
const factor = (price: Price, groupRatio: number): Factor =>
  price.scale === undefined || price.scale === 1 ? { g: micro(groupRatio), denom: SCALE2 } : { g: micro(groupRatio) * micro(price.scale), denom: SCALE3 };
const ceilDiv = (a: bigint, b: bigint) => (a <= 0n ? 0n : (a + b - 1n) / b);

/** The price at a service multiplier (it multiplies the whole price); the same object when it already is at it. */
export const atScale = (price: Price, scale: number): Price => ((price.scale ?? 1) === scale ? price : { ...price, scale });

/** The tier a prompt of `promptTokens` falls in: the base price (index 0) or the highest tier it passes. */
export function priceTier(price: Price, promptTokens: number): { index: number; price: Price } {
  if (!price.tiers?.length || price.type === 'times') return { index: 0, price };
  let index = 0;
  for (let i = 0; i < price.tiers.length; i++) if (promptTokens > price.tiers[i].above) index = i + 1;
  if (index === 0) return { index, price };
  const t = price.tiers[index - 1];
  return { index, price: { type: 'tokens', input: t.input, output: t.output, extra: { ...price.extra, ...t.extra }, service: price.service, scale: price.scale } };
}

/** The dearest tier's input and output (and its cache ratios): what a hold must cover before the prompt is counted. */
export function worstTier(price: Price): Price {
  if (!price.tiers?.length || price.type === 'times') return price;
  let worst: Price = price;
  for (const t of price.tiers) {
    worst = {
      type: 'tokens',
      input: Math.max(worst.input, t.input),
      output: Math.max(worst.output, t.output),
      extra: maxExtra(worst.extra, { ...price.extra, ...t.extra }),
      service: price.service,
      scale: price.scale,
    };
  }
  return worst;
}

function maxExtra(a: Price['extra'], b: Price['extra']): Price['extra'] {
  const out: Price['extra'] = {};
  for (const k of Object.keys(DEFAULT_EXTRA) as ExtraClass[]) {
    if (a[k] === undefined && b[k] === undefined) continue;
    out[k] = Math.max(a[k] ?? DEFAULT_EXTRA[k], b[k] ?? DEFAULT_EXTRA[k]);
  }
  return out;
}

/** The ratio a price bills a usage class at: its own, else the built-in default. */
export const ratioOf = (price: Price, k: ExtraClass): number => price.extra[k] ?? DEFAULT_EXTRA[k];

/** `tokens × (ratio − 1)`, truncated toward zero like the original's integer conversion; the ratio is read only when there are tokens of the class. */
const shift = (tokens: number, price: Price, k: ExtraClass) => (tokens ? (BigInt(tokens) * (micro(ratioOf(price, k)) - SCALE)) / SCALE : 0n);

/** Quota for a finished request (relay.md §4.7), as a non-negative integer, at the tier its prompt falls in. */
export function computeQuota(usage: Usage, price: Price, groupRatio: number): number {
  return costAt(usage, priceTier(price, usage.promptTokens).price, groupRatio);
}

/** Quota for a finished request at a tier already chosen (`priceTier`). */
export function costAt(usage: Usage, price: Price, groupRatio: number): number {
  const { g, denom } = factor(price, groupRatio);
  const inM = micro(price.input) * g;
  if (price.type === 'times') return Number((1000n * inM) / denom);
  const outM = micro(price.output) * g;
  let prompt = BigInt(usage.promptTokens);
  // Classes without tokens add nothing; skipping them skips their BigInt work on every plain request.
  if (usage.cachedTokens) prompt += shift(usage.cachedTokens, price, 'cached_tokens');
  if (usage.cacheReadTokens) prompt += shift(usage.cacheReadTokens, price, 'cached_read_tokens');
  if (usage.cacheWriteTokens) prompt += shift(usage.cacheWriteTokens, price, 'cached_write_tokens');
  if (usage.cacheWrite1hTokens) prompt += shift(usage.cacheWrite1hTokens, price, 'cached_write_1h_tokens');
  if (usage.audioInputTokens) prompt += shift(usage.audioInputTokens, price, 'input_audio_tokens');
  let completion = BigInt(usage.completionTokens);
  if (usage.reasoningTokens) completion += shift(usage.reasoningTokens, price, 'reasoning_tokens');
  if (usage.audioOutputTokens) completion += shift(usage.audioOutputTokens, price, 'output_audio_tokens');
  if (prompt + completion <= 0n) return 0;
  const pos = (x: bigint) => (x > 0n ? x : 0n);
  const quota = Number(ceilDiv(pos(prompt) * inM + pos(completion) * outM, denom));
  return inM !== 0n && quota <= 0 ? 1 : quota;
}

/** `ceil(tokens × ratio × factor)` in exact integers. */
function tokensCost(tokens: number, ratio: number, f: Factor): number {
  return Number(ceilDiv(BigInt(Math.max(0, Math.ceil(tokens))) * micro(ratio) * f.g, f.denom));
}

/**
 * The most a request may cost, held before the call: prompt estimate plus its output cap
 * (the request's, else the model's limit), at least the PreConsumedQuota floor for output;
 * priced at the dearest tier, since the prompt's real size is known only at settlement.
 */
export function reserveQuota(price: Price, groupRatio: number, promptEstimate: number, maxOutput: number | undefined, preConsumed: number): number {
  const worst = worstTier(price);
  if (worst.type === 'times') return costAt({ promptTokens: 0 } as Usage, worst, groupRatio);
  const f = factor(worst, groupRatio);
  if (f.g === 0n || (micro(worst.input) === 0n && micro(worst.output) === 0n)) return 0;
  const output = maxOutput !== undefined ? tokensCost(maxOutput, worst.output, f) : 0;
  return tokensCost(promptEstimate, worst.input, f) + Math.max(output, preConsumed);
}

/** The most output tokens a balance of `available` pays for beside the prompt, under the same formula. */
export function affordableOutput(price: Price, groupRatio: number, promptEstimate: number, available: number, preConsumed: number): number {
  const worst = worstTier(price);
  const f = factor(worst, groupRatio);
  const outM = micro(worst.output) * f.g;
  if (worst.type === 'times' || outM === 0n) return 0;
  const left = available - tokensCost(promptEstimate, worst.input, f);
  if (left < preConsumed) return 0;
  return Math.max(0, Number((BigInt(left) * f.denom) / outM));
}

/** `units × 1000 × ratio × groupRatio` in exact integers: floored for per-call prices, ceiled for token prices. */
export function unitsCost(price: Price, groupRatio: number, units: number): number {
  const f = factor(price, groupRatio);
  const n = 1000n * BigInt(Math.max(0, Math.round(units))) * micro(price.input) * f.g;
  return Number(price.type === 'times' ? n / f.denom : ceilDiv(n, f.denom));
}
