import type { HistoryItem } from '../bridge/responses-history.js';

/** A request's own input as items (a plain string is one user message). */
function inputItems(input: unknown): HistoryItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as HistoryItem[]) : [];
}

const COMPLETED = '{"type":"response.completed"';

/**
 * A Responses WebSocket's memory of its most recent response that nobody keeps (`store: false`).
 * OpenAI's WebSocket mode keeps that response in connection memory, and Codex relies on it: it
 * prewarms with `generate: false`, then continues from that response with `previous_response_id`
 * and only the new input. Each turn reaches the channel as an HTTP request, where an unstored id
 * is unknown, so the gateway continues it itself: the remembered items go into `input`.
 */
export class SocketMemory {
  private last?: { id: string; items: HistoryItem[] };

  /** The body to run: a continuation of the remembered response carries its items instead of the id. */
  expand(body: Record<string, unknown>): Record<string, unknown> {
    const last = this.last;
    if (!last || body.previous_response_id !== last.id) return body;
    const { previous_response_id: _, ...rest } = body;
    return { ...rest, input: [...last.items, ...inputItems(body.input)] };
  }

  /** Passes a turn's frames on; remembers the turn's completed response when the request was not stored. */
  watch(body: Record<string, unknown>, emit: (frame: string) => void): (frame: string) => void {
    return (frame) => {
      if (body.store === false && frame.startsWith(COMPLETED)) this.remember(body, frame);
      emit(frame);
    };
  }

  private remember(body: Record<string, unknown>, frame: string): void {
    try {
      const response = (JSON.parse(frame) as { response?: { id?: unknown; output?: unknown } }).response;
      if (typeof response?.id !== 'string') return;
      const output = Array.isArray(response.output) ? (response.output as HistoryItem[]) : [];
      this.last = { id: response.id, items: [...inputItems(body.input), ...output] };
    } catch {
      // not the event it looked like: nothing to remember
    }
  }
}
