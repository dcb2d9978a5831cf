import type { Prepared } from './prepare.js';

/** Lowering the output cap below this many tokens would serve no useful answer: refuse instead. */
export const MIN_LOWERED_OUTPUT = 16;

/** OpenAI's reasoning models take only `max_completion_tokens`. */
const COMPLETION_CAP_ONLY = /^(o\d|gpt-5)/i;

/**
 * Rewrites the request's output cap to `tokens` in the door's own field (LowerMaxTokensToBalance).
 * The body becomes a new object, so the received bytes are no longer forwarded as they were.
 */
export function lowerMaxOutput(p: Prepared, tokens: number): void {
  const body = { ...(p.body as Record<string, unknown>) };
  switch (p.endpoint) {
    case 'generateContent':
      body.generationConfig = { ...((body.generationConfig as object | undefined) ?? {}), maxOutputTokens: tokens };
      break;
    case 'responses':
      body.max_output_tokens = tokens;
      break;
    case 'interactions':
      body.generation_config = { ...((body.generation_config as object | undefined) ?? {}), max_output_tokens: tokens };
      break;
    case 'chat/completions':
      if (body.max_completion_tokens !== undefined || COMPLETION_CAP_ONLY.test(p.model)) body.max_completion_tokens = tokens;
      else body.max_tokens = tokens;
      break;
    default:
      body.max_tokens = tokens;
  }
  p.body = body;
  p.maxOutput = tokens;
  p.hub = undefined;
}
