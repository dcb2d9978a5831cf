import type { RawData } from 'ws';
import type { ClientFrame } from './worst-case.js';

/**
 * The holds of forwarded client `response.create`s that upstream has not answered yet, oldest
 * first. Upstream answers each in turn: with a `response.created` (taken by the oldest), or, when
 * it rejects one (a response already active in the conversation, a bad parameter), with an `error`
 * whose `error.event_id` is the create's `event_id` and no `response.created` after it. So every
 * create goes upstream with an event_id (the gateway gives one to a create that has none), and an
 * error gives back only the hold of the create it names: an error about any other event, or
 * naming none, leaves the holds alone.
 */
export class AskedHolds<H> {
  private readonly waiting: Array<{ eventId: string; hold: H }> = [];
  private given = 0;

  /** `prefix` starts the event ids the gateway gives (unique within the session). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.waiting.length;
  }

  /** Queues a create's hold and answers the frame to forward: the client's own, or a copy with the event_id given. */
  add(frame: ClientFrame, data: RawData, hold: H): RawData | string {
    const own = typeof frame.event_id === 'string' && frame.event_id !== '' ? frame.event_id : undefined;
    const eventId = own ?? `${this.prefix}${++this.given}`;
    this.waiting.push({ eventId, hold });
    return own ? data : JSON.stringify({ ...frame, event_id: eventId });
  }

  /** Whether `eventId` is one the gateway gave (the client's create had none). */
  gave(eventId: unknown): boolean {
    return typeof eventId === 'string' && eventId.startsWith(this.prefix);
  }

  /** A `response.created`: the oldest waiting hold. */
  take(): H | undefined {
    return this.waiting.shift()?.hold;
  }

  /** An upstream `error` naming `eventId`: the hold of the waiting create it rejects (removed), else undefined. */
  rejected(eventId: unknown): H | undefined {
    if (typeof eventId !== 'string') return undefined;
    // A client may reuse an event_id; upstream answers in order, so the oldest such create is the one rejected.
    const at = this.waiting.findIndex((w) => w.eventId === eventId);
    return at < 0 ? undefined : this.waiting.splice(at, 1)[0].hold;
  }

  /** A create upstream left unanswered: removes its hold if it is still waiting, and answers whether it was. */
  withdraw(hold: H): boolean {
    const at = this.waiting.findIndex((w) => w.hold === hold);
    if (at >= 0) this.waiting.splice(at, 1);
    return at >= 0;
  }

  /** Every waiting hold, removed (the session ended). */
  drain(): H[] {
    return this.waiting.splice(0).map((w) => w.hold);
  }
}
