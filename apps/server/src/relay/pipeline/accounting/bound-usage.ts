import type { Endpoint, Usage } from '../../providers/types.js';

/** Endpoints whose quick prompt estimate reads the whole prompt text (the others count images or audio). */
const TEXT_PROMPT = new Set<Endpoint>(['chat/completions', 'completions', 'messages', 'generateContent', 'responses', 'responses/compact', 'embeddings', 'embedContent', 'batchEmbedContents', 'moderations', 'rerank', 'interactions']);
/** Endpoints that generate text under an output cap (`max_tokens` and its kin). */
export const CAPPED_OUTPUT = new Set<Endpoint>(['chat/completions', 'completions', 'messages', 'generateContent', 'responses', 'interactions']);

/**
 * The most prompt tokens believed for a text request estimated at `estimate`: several times
 * the estimate (byte arithmetic under-counts some scripts) plus room for images and tools
 * the estimate does not see.
 */
export const promptCap = (estimate: number) => 8 * estimate + 65_536;

export interface Bounded {
  usage: Usage;
  /** What upstream reported, when it was above the bounds. */
  capped?: { prompt_tokens?: number; completion_tokens?: number };
}

const clamp = (v: number, max: number) => Math.min(Math.max(0, Number.isFinite(v) ? Math.trunc(v) : 0), max);

/**
 * Usage as billed: completion tokens at most the request's output cap (its own or the
 * model's), prompt tokens at most `promptCap` of the local estimate, every part within its
 * total. An upstream that reports more is billed at the bound and the log row says so.
 */
export function boundUsage(u: Usage, endpoint: Endpoint, promptEstimate: number, maxOutput: number): Bounded {
  const promptMax = TEXT_PROMPT.has(endpoint) ? promptCap(promptEstimate) : Number.MAX_SAFE_INTEGER;
  const prompt = clamp(u.promptTokens, promptMax);
  if (!CAPPED_OUTPUT.has(endpoint)) maxOutput = Number.MAX_SAFE_INTEGER;
  const completion = clamp(u.completionTokens, maxOutput);
  const usage: Usage = {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: clamp(u.cachedTokens, prompt),
    cacheReadTokens: clamp(u.cacheReadTokens, prompt),
    cacheWriteTokens: clamp(u.cacheWriteTokens, prompt),
    cacheWrite1hTokens: clamp(u.cacheWrite1hTokens, prompt),
    audioInputTokens: clamp(u.audioInputTokens, prompt),
    reasoningTokens: clamp(u.reasoningTokens, completion),
    audioOutputTokens: clamp(u.audioOutputTokens, completion),
  };
  if (u.serviceTier) usage.serviceTier = u.serviceTier;
  if (u.speed) usage.speed = u.speed;
  if (u.promptTokens <= promptMax && u.completionTokens <= maxOutput) return { usage };
  const capped: Bounded['capped'] = {};
  if (u.promptTokens > promptMax) capped.prompt_tokens = u.promptTokens;
  if (u.completionTokens > maxOutput) capped.completion_tokens = u.completionTokens;
  return { usage, capped };
}
