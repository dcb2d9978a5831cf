import { usageFromInteraction } from '../../formats/gemini/interactions.js';
import { billingUsageOrNull } from '../../bridge/usage.js';
import type { Frame, StreamMapper } from '../types.js';
import { parseFrame } from '../shared/broken-frame.js';

/** The fields of an Interactions stream event the gateway reads. */
interface InteractionEvent {
  event_type?: string;
  interaction?: { id?: unknown; usage?: unknown };
  interaction_id?: unknown;
  usage?: unknown;
  delta?: { type?: string; text?: unknown; arguments?: unknown };
  metadata?: { total_usage?: unknown };
}

/** Events after which an interaction's stream has nothing more to say. */
const FINAL = new Set(['interaction.completed', 'interaction.complete']);

/**
 * A Gemini Interactions stream to its caller: events pass through unchanged, named as upstream
 * named them; the interaction id and the latest running usage are tapped (the completed
 * interaction carries the totals, a status update or step stop may carry them earlier).
 */
export function createInteractionsPassThrough(): StreamMapper & { interactionId(): string | undefined } {
  let usage: unknown = null;
  let ended = false;
  let id: string | undefined;
  const parts: string[] = [];
  return {
    onEvent(data) {
      if (data === '[DONE]') {
        ended = true;
        return [data];
      }
      const event = parseFrame<InteractionEvent>(data);
      const interactionId = event.interaction?.id ?? event.interaction_id;
      if (!id && typeof interactionId === 'string') id = interactionId;
      const reported = event.interaction?.usage ?? event.usage ?? event.metadata?.total_usage;
      if (reported && typeof reported === 'object') usage = reported;
      if (event.event_type && FINAL.has(event.event_type)) ended = true;
      const delta = event.delta;
      if (delta && typeof delta.text === 'string') parts.push(delta.text);
      else if (delta && delta.arguments !== undefined) parts.push(typeof delta.arguments === 'string' ? delta.arguments : JSON.stringify(delta.arguments));
      return [data];
    },
    usage: () => billingUsageOrNull(usageFromInteraction(usage), 'gemini'),
    text: () => parts.join(''),
    finish: () => [],
    ended: () => ended,
    fail: (message): Frame[] => [{ event: 'error', data: JSON.stringify({ event_type: 'error', error: { code: 'unavailable', message } }) }],
    interactionId: () => id,
  };
}
