import type { Usage } from '../providers/types.js';

export interface Price {
  type: 'tokens' | 'times';
  input: number;
  output: number;
  extra: Partial<Record<ExtraClass, number>>;
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

const ratio = (price: Price, k: ExtraClass) => price.extra[k] ?? DEFAULT_EXTRA[k];

/** Quota for a finished request (relay.md §4.7), as a non-negative integer. */
export function computeQuota(usage: Usage, price: Price, groupRatio: number): number {
  const inRatio = Math.max(price.input, 0) * groupRatio;
  if (price.type === 'times') return Math.floor(1000 * inRatio);
  const outRatio = Math.max(price.output, 0) * groupRatio;
  const prompt =
    usage.promptTokens +
    Math.trunc(usage.cachedTokens * (ratio(price, 'cached_tokens') - 1)) +
    Math.trunc(usage.cacheReadTokens * (ratio(price, 'cached_read_tokens') - 1)) +
    Math.trunc(usage.cacheWriteTokens * (ratio(price, 'cached_write_tokens') - 1)) +
    Math.trunc(usage.cacheWrite1hTokens * (ratio(price, 'cached_write_1h_tokens') - 1)) +
    Math.trunc(usage.audioInputTokens * (ratio(price, 'input_audio_tokens') - 1));
  const completion =
    usage.completionTokens +
    Math.trunc(usage.reasoningTokens * (ratio(price, 'reasoning_tokens') - 1)) +
    Math.trunc(usage.audioOutputTokens * (ratio(price, 'output_audio_tokens') - 1));
  if (prompt + completion <= 0) return 0;
  const quota = Math.ceil(Math.max(prompt, 0) * inRatio + Math.max(completion, 0) * outRatio);
  return inRatio !== 0 && quota <= 0 ? 1 : Math.max(quota, 0);
}

/**
 * The most a request may cost, held before the call: prompt estimate plus its output cap
 * (the request's, else the model's limit), at least the PreConsumedQuota floor for output.
 */
export function reserveQuota(price: Price, groupRatio: number, promptEstimate: number, maxOutput: number | undefined, preConsumed: number): number {
  const inRatio = Math.max(price.input, 0) * groupRatio;
  if (price.type === 'times') return Math.floor(1000 * inRatio);
  const outRatio = Math.max(price.output, 0) * groupRatio;
  if (inRatio === 0 && outRatio === 0) return 0;
  const output = maxOutput !== undefined ? Math.ceil(maxOutput * outRatio) : 0;
  return Math.ceil(promptEstimate * inRatio) + Math.max(output, preConsumed);
}

/** The most output tokens a balance of `available` pays for beside the prompt, under the same formula. */
export function affordableOutput(price: Price, groupRatio: number, promptEstimate: number, available: number, preConsumed: number): number {
  const outRatio = Math.max(price.output, 0) * groupRatio;
  if (price.type === 'times' || outRatio === 0) return 0;
  const left = available - Math.ceil(promptEstimate * Math.max(price.input, 0) * groupRatio);
  if (left < preConsumed) return 0;
  return Math.max(0, Math.floor(left / outRatio));
}
