import { inputTokens, outputTokens, type Usage as NormalUsage } from '../formats/index.js';
import type { Usage } from '../providers/types.js';

/** The converters' disjoint usage buckets → the billing record (OpenAI inclusion rules). */
export function billingUsage(u: NormalUsage): Usage {
  return {
    promptTokens: inputTokens(u),
    completionTokens: outputTokens(u),
    cachedTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite5m + u.cacheWrite1h,
    reasoningTokens: u.reasoning,
    audioInputTokens: u.audioIn,
    audioOutputTokens: u.audioOut,
  };
}

export const billingUsageOrNull = (u: NormalUsage | null): Usage | null => (u ? billingUsage(u) : null);
