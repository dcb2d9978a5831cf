import { HubError } from '../../../common/errors.js';

/**
 * Relay requests each user has in flight on this node (`UserMaxInflight`), so one
 * caller cannot take every upstream connection. In-process: the limit is per node.
 */
export class InflightCounter {
  private readonly counts = new Map<number, number>();

  /** Counts a request in, or refuses it with a 429 when the user is at the limit (0 = none). */
  enter(userId: number, limit: number): void {
    const n = this.counts.get(userId) ?? 0;
    if (limit > 0 && n >= limit) {
      throw new HubError(429, `too many requests in flight: ${n} of this user's requests are still running (UserMaxInflight ${limit}); retry when one has finished`, {
        code: 'too_many_inflight',
        type: 'one_hub_error',
      });
    }
    this.counts.set(userId, n + 1);
  }

  /** Counts a request out; call exactly once per successful `enter`. */
  leave(userId: number): void {
    const n = (this.counts.get(userId) ?? 1) - 1;
    if (n > 0) this.counts.set(userId, n);
    else this.counts.delete(userId);
  }

  /** Requests in flight on this node, all users together. */
  total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /** Requests the user has in flight now. */
  of(userId: number): number {
    return this.counts.get(userId) ?? 0;
  }
}
