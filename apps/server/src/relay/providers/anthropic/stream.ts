import { mergeAnthropicUsage, usageFromAnthropic } from '../../formats/index.js';
import { billingUsageOrNull } from '../../bridge/usage.js';
import type { StreamMapper } from '../types.js';
import { parseFrame } from '../shared/broken-frame.js';

interface Event {
  type?: string;
  message?: { usage?: Record<string, unknown> };
  usage?: Record<string, unknown>;
  delta?: { text?: string; thinking?: string; partial_json?: string };
}

/**
 * Anthropic stream to an Anthropic caller: events pass through unchanged (thinking
 * signatures included); usage from message_start and message_delta is tapped.
 */
export function createAnthropicPassThrough(): StreamMapper {
  let raw: Record<string, unknown> | null = null;
  let ended = false;
  const parts: string[] = [];
  return {
    onEvent(data) {
      const e = parseFrame<Event>(data);
      if (e.type === 'message_start' && e.message?.usage) raw = mergeAnthropicUsage(null, e.message.usage);
      else if (e.type === 'message_delta' && e.usage) raw = mergeAnthropicUsage(raw, e.usage);
      else if (e.type === 'content_block_delta') {
        const text = e.delta?.text ?? e.delta?.thinking ?? e.delta?.partial_json;
        if (text) parts.push(text);
      } else if (e.type === 'message_stop' || e.type === 'error') ended = true; // an error event was forwarded as it is
      return [data];
    },
    usage: () => billingUsageOrNull(usageFromAnthropic(raw), 'anthropic'),
    text: () => parts.join(''),
    finish: () => [],
    ended: () => ended,
    fail: (message) => [{ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'api_error', message } }) }],
  };
}
