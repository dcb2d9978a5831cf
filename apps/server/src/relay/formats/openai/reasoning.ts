/**
 * Reasoning text of a hub message or delta: `reasoning_content` (DeepSeek and
 * most vendors) or `reasoning` (OpenRouter, vLLM); empty string when none.
 */
export function reasoningOf(m: { reasoning_content?: unknown; reasoning?: unknown } | undefined): string {
  if (!m) return '';
  if (typeof m.reasoning_content === 'string' && m.reasoning_content) return m.reasoning_content;
  return typeof m.reasoning === 'string' ? m.reasoning : '';
}
