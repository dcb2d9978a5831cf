import { emptyUsage, type Usage } from '../types.js';

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number; cache_write_tokens?: number };
  input_tokens_details?: { cached_tokens?: number; audio_tokens?: number; cache_write_tokens?: number };
  /** Transcription usage spells it in the singular. */
  input_token_details?: { audio_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number };
  output_tokens_details?: { reasoning_tokens?: number };
}

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/**
 * Reads OpenAI usage (chat, completions, embeddings and the Responses API's
 * input/output naming). Cached, audio and reasoning counts are subsets of the
 * prompt/completion totals, as OpenAI reports them. Negative values count as 0.
 * `serviceTier` is the answer's top-level `service_tier` (it is not inside usage).
 */
export function readOpenAIUsage(raw: unknown, serviceTier?: unknown): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as OpenAIUsage;
  const usage = emptyUsage();
  usage.promptTokens = n(u.prompt_tokens ?? u.input_tokens);
  usage.completionTokens = n(u.completion_tokens ?? u.output_tokens);
  usage.cachedTokens = n(u.prompt_tokens_details?.cached_tokens ?? u.input_tokens_details?.cached_tokens);
  // Prompt-cache writes, also a subset of the prompt (priced by `cached_write_tokens`, default 1.25).
  usage.cacheWriteTokens = n(u.prompt_tokens_details?.cache_write_tokens ?? u.input_tokens_details?.cache_write_tokens);
  usage.audioInputTokens = n(u.prompt_tokens_details?.audio_tokens ?? u.input_tokens_details?.audio_tokens ?? u.input_token_details?.audio_tokens);
  usage.reasoningTokens = n(u.completion_tokens_details?.reasoning_tokens ?? u.output_tokens_details?.reasoning_tokens);
  usage.audioOutputTokens = n(u.completion_tokens_details?.audio_tokens);
  if (typeof serviceTier === 'string' && serviceTier) usage.serviceTier = serviceTier;
  return usage;
}
