import { count, emptyUsage, inputTokens, outputTokens, serviceWord, type Usage } from '../openai/usage.js';
import { isObject } from '../shared/json.js';
import type { AnthropicUsage } from './types.js';

/**
 * Anthropic usage → Usage. Anthropic reports disjoint fields: input_tokens
 * excludes cache reads and writes; cache_creation splits writes into 5m/1h
 * (without the split every write counts as 5m). output_tokens includes thinking.
 */
export function usageFromAnthropic(raw: unknown): Usage | null {
  if (!isObject(raw)) return null;
  const u = emptyUsage();
  u.inputUncached = count(raw.input_tokens);
  u.cacheRead = count(raw.cache_read_input_tokens);
  const writes = count(raw.cache_creation_input_tokens);
  const split = isObject(raw.cache_creation) ? raw.cache_creation : null;
  if (split) {
    u.cacheWrite5m = count(split.ephemeral_5m_input_tokens);
    u.cacheWrite1h = count(split.ephemeral_1h_input_tokens);
    // A total larger than its split: the unexplained rest is billed as 5m.
    u.cacheWrite5m += Math.max(0, writes - u.cacheWrite5m - u.cacheWrite1h);
  } else u.cacheWrite5m = writes;
  u.output = count(raw.output_tokens);
  const tier = serviceWord(raw.service_tier);
  const speed = serviceWord(raw.speed);
  if (tier) u.serviceTier = tier;
  if (speed) u.speed = speed;
  return u;
}

/**
 * Folds a stream's message_delta usage into message_start's. Anthropic's counts
 * are cumulative, so a field present later replaces the earlier one (never summed).
 */
export function mergeAnthropicUsage(start: Record<string, unknown> | null, later: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(start ?? {}) };
  for (const [k, v] of Object.entries(later)) if (v !== null && v !== undefined) merged[k] = v;
  return merged;
}

export function usageToAnthropic(u: Usage): AnthropicUsage {
  return {
    input_tokens: inputTokens(u) - u.cacheRead - u.cacheWrite5m - u.cacheWrite1h,
    cache_creation_input_tokens: u.cacheWrite5m + u.cacheWrite1h,
    cache_read_input_tokens: u.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWrite5m, ephemeral_1h_input_tokens: u.cacheWrite1h },
    output_tokens: outputTokens(u),
  };
}
