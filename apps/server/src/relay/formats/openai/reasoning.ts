import type { ReasoningEffort } from './types.js';

/**
 * Reasoning text of a hub message or delta: `reasoning_content` (DeepSeek and
 * most vendors) or `reasoning` (OpenRouter, vLLM); empty string when none.
 */
export function reasoningOf(m: { reasoning_content?: unknown; reasoning?: unknown } | undefined): string {
  if (!m) return '';
  if (typeof m.reasoning_content === 'string' && m.reasoning_content) return m.reasoning_content;
  return typeof m.reasoning === 'string' ? m.reasoning : '';
}

/** Thinking budget → an effort level, for targets that only take levels. */
export function effortFromBudget(budget: number): ReasoningEffort {
  if (budget <= 2048) return 'low';
  if (budget <= 12_000) return 'medium';
  return 'high';
}
