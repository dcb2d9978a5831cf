import type { OpenAIUsage } from './types.js';
import { isObject } from '../shared/json.js';

/**
 * Normalised usage: disjoint buckets, so billing prices each token exactly once.
 * Input total = inputUncached + cacheRead + cacheWrite5m + cacheWrite1h + audioIn + imageIn.
 * Output total = output + reasoning + audioOut + imageOut.
 */
export interface Usage {
  inputUncached: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
  audioIn: number;
  audioOut: number;
  imageIn: number;
  imageOut: number;
  /** Not token buckets: the service tier and speed the upstream reports, kept across families for billing. */
  serviceTier?: string;
  speed?: string;
}

/** A reported service tier or speed: a non-empty string, else nothing. */
export const serviceWord = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** `u` with the service tier an OpenAI answer reports beside its usage (top level, not inside usage). */
export function withServiceTier<T extends { serviceTier?: string }>(u: T | null, tier: unknown): T | null {
  const t = serviceWord(tier);
  if (u && t) u.serviceTier = t;
  return u;
}

export const emptyUsage = (): Usage => ({
  inputUncached: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0, reasoning: 0, audioIn: 0, audioOut: 0, imageIn: 0, imageOut: 0,
});

export const inputTokens = (u: Usage): number => u.inputUncached + u.cacheRead + u.cacheWrite5m + u.cacheWrite1h + u.audioIn + u.imageIn;
export const outputTokens = (u: Usage): number => u.output + u.reasoning + u.audioOut + u.imageOut;
export const totalTokens = (u: Usage): number => inputTokens(u) + outputTokens(u);

/** A non-negative integer count, 0 for anything else. */
export const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/**
 * OpenAI usage (chat names, or the Responses API's input/output names) → Usage.
 * OpenAI reports cached, audio, image and cache-write (`cache_write_tokens`) tokens as
 * subsets of prompt_tokens, and reasoning/audio/image as subsets of completion_tokens.
 */
export function usageFromOpenAI(raw: unknown): Usage | null {
  if (!isObject(raw)) return null;
  const pd = (isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : isObject(raw.input_tokens_details) ? raw.input_tokens_details : {}) as Record<string, unknown>;
  const cd = (isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : isObject(raw.output_tokens_details) ? raw.output_tokens_details : {}) as Record<string, unknown>;
  const prompt = count(raw.prompt_tokens ?? raw.input_tokens);
  const completion = count(raw.completion_tokens ?? raw.output_tokens);
  const u = emptyUsage();
  // DeepSeek reports cache hits at the top level instead of in the details.
  u.cacheRead = Math.min(count(pd.cached_tokens ?? raw.prompt_cache_hit_tokens), prompt);
  const writes = count(pd.cache_write_tokens);
  u.cacheWrite1h = Math.min(count(pd.cache_write_1h_tokens), writes);
  u.cacheWrite5m = writes - u.cacheWrite1h;
  u.audioIn = count(pd.audio_tokens);
  u.imageIn = count(pd.image_tokens);
  u.inputUncached = Math.max(0, prompt - u.cacheRead - writes - u.audioIn - u.imageIn);
  u.reasoning = Math.min(count(cd.reasoning_tokens), completion);
  u.audioOut = count(cd.audio_tokens);
  u.imageOut = count(cd.image_tokens);
  u.output = Math.max(0, completion - u.reasoning - u.audioOut - u.imageOut);
  return u;
}

/** Usage → OpenAI chat usage (details only where non-zero; cache writes in extension fields). */
export function usageToOpenAI(u: Usage): OpenAIUsage {
  const prompt = inputTokens(u);
  const completion = outputTokens(u);
  const out: OpenAIUsage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  const pd: NonNullable<OpenAIUsage['prompt_tokens_details']> = { cached_tokens: u.cacheRead };
  if (u.audioIn) pd.audio_tokens = u.audioIn;
  if (u.imageIn) pd.image_tokens = u.imageIn;
  if (u.cacheWrite5m + u.cacheWrite1h) pd.cache_write_tokens = u.cacheWrite5m + u.cacheWrite1h;
  if (u.cacheWrite1h) pd.cache_write_1h_tokens = u.cacheWrite1h;
  out.prompt_tokens_details = pd;
  const cd: NonNullable<OpenAIUsage['completion_tokens_details']> = { reasoning_tokens: u.reasoning };
  if (u.audioOut) cd.audio_tokens = u.audioOut;
  if (u.imageOut) cd.image_tokens = u.imageOut;
  out.completion_tokens_details = cd;
  return out;
}

/** Responses API usage shape. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export function usageToResponses(u: Usage): ResponsesUsage {
  const input = inputTokens(u);
  const output = outputTokens(u);
  const writes = u.cacheWrite5m + u.cacheWrite1h;
  return {
    input_tokens: input,
    input_tokens_details: writes ? { cached_tokens: u.cacheRead, cache_write_tokens: writes } : { cached_tokens: u.cacheRead },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: input + output,
  };
}
