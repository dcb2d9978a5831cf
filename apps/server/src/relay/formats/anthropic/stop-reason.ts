import type { HubFinishReason } from '../openai/types.js';
import type { AnthropicStopReason } from './types.js';

const TO_HUB: Record<string, HubFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Anthropic stop_reason → OpenAI finish_reason (unknown values become `stop`). */
export const stopReasonToHub = (r: string | null | undefined): HubFinishReason | null => (r ? (TO_HUB[r] ?? 'stop') : null);

const FROM_HUB: Record<string, AnthropicStopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export const finishReasonToAnthropic = (r: string | null | undefined): AnthropicStopReason => (r ? (FROM_HUB[r] ?? 'end_turn') : 'end_turn');
