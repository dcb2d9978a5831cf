import type { HubFinishReason } from '../openai/types.js';

const BLOCKED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE']);

/** Gemini finishReason → OpenAI finish_reason; `hasToolCalls` turns STOP into tool_calls. */
export function finishReasonToHub(r: string | undefined, hasToolCalls: boolean): HubFinishReason | null {
  if (!r || r === 'FINISH_REASON_UNSPECIFIED') return null;
  if (r === 'MAX_TOKENS') return 'length';
  if (BLOCKED.has(r)) return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

const FROM_HUB: Record<string, string> = { stop: 'STOP', tool_calls: 'STOP', function_call: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY' };

export const finishReasonToGemini = (r: string | null | undefined): string => (r ? (FROM_HUB[r] ?? 'STOP') : 'STOP');
