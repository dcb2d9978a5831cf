import { inputTokens, outputTokens, type Usage as NormalUsage } from '../formats/index.js';
import type { Dialect, Usage } from '../providers/types.js';

/**
 * The converters' disjoint usage buckets → the billing record (totals follow
 * OpenAI's inclusion rules). Cache reads keep their family: OpenAI's are priced by
 * `cached_tokens`, Anthropic's and Gemini's by the deeper `cached_read_tokens`.
 */
export function billingUsage(u: NormalUsage, dialect: Dialect): Usage {
  return {
    promptTokens: inputTokens(u),
    completionTokens: outputTokens(u),
    cachedTokens: dialect === 'openai' ? u.cacheRead : 0,
    cacheReadTokens: dialect === 'openai' ? 0 : u.cacheRead,
    cacheWriteTokens: u.cacheWrite5m,
    cacheWrite1hTokens: u.cacheWrite1h,
    reasoningTokens: u.reasoning,
    audioInputTokens: u.audioIn,
    audioOutputTokens: u.audioOut,
    ...(u.serviceTier ? { serviceTier: u.serviceTier } : {}),
    ...(u.speed ? { speed: u.speed } : {}),
  };
}

export const billingUsageOrNull = (u: NormalUsage | null, dialect: Dialect): Usage | null => (u ? billingUsage(u, dialect) : null);
