import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/**
 * A receiver of the generic notification webhook that does what its documentation asks of
 * receivers: recompute HMAC-SHA256(secret, "timestamp.body") over the raw body, compare it in
 * constant time and refuse stale timestamps (5 minutes).
 */
export class FakeWebhookReceiver extends FakeHttp<object> {
  readonly events: Array<{ event: string; title: string; text: string }> = [];
  /** The next answers are 503, to exercise retries. */
  failures = 0;

  constructor(readonly secret: string) {
    super();
  }

  protected keyOf(): string {
    return '';
  }

  /** Requests waiting behind `hold()`. */
  waiting = 0;
  private gate?: Promise<void>;

  /** Keeps every request unanswered until the returned release is called. */
  hold(): () => void {
    let release = () => {};
    this.gate = new Promise<void>((r) => (release = r));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    if (this.gate) {
      this.waiting++;
      await this.gate;
      this.waiting--;
    }
    if (this.failures > 0) {
      this.failures--;
      return sendJson(res, { error: 'unavailable' }, 503);
    }
    const timestamp = Number(req.headers['x-one-hub-timestamp']);
    const given = Buffer.from(String(req.headers['x-one-hub-signature'] ?? ''));
    const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${req.raw}`).digest('hex')}`);
    const fresh = Math.abs(Date.now() / 1000 - timestamp) <= 300;
    if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) return sendJson(res, { error: 'bad signature' }, 401);
    this.events.push(req.body);
    sendJson(res, { received: true });
  }
}
