import type { SharedStore } from '../../../cache/shared-store.js';

/** One user's share of the current minute's count on this node. */
interface Window {
  minute: number;
  /** Requests this node may still admit from what it took. */
  left: number;
  taking?: Promise<number>;
}

/** A user id (the group's `api_rate`), or a limit scope's name (limits.ts). */
type Who = number | string;

const windowKey = (who: Who, minute: number) => `relay-rpm:${who}:${minute}`;

/** A take is at most this share of the limit, so a node never sits on much that another node could use. */
const MAX_CHUNK_SHARE = 20;
const MAX_CHUNK = 256;

/**
 * Per-user requests per minute (the group's `api_rate`) over one fixed window shared by every
 * node. A node takes admissions from the shared counter in chunks of up to 1/20 of the limit and
 * 256, the first one of each minute included, so a user costs a store round trip about once a
 * minute (a busy one every 256 requests) instead of one per request. The shared count never passes
 * the limit (a take beyond it is given back), so the limit holds across nodes exactly; with several
 * nodes a user can be refused at most one chunk per other node early, while those nodes still hold
 * admissions they took.
 *
 * With `phased`, a numeric id's minute starts `id % 60` seconds past the clock's: every user's
 * window is still one fixed minute on every node, but the first takes of thousands of users are
 * spread over the minute instead of all falling in its first seconds (decision 0115).
 */
export class RpmWindows {
  private readonly windows = new Map<Who, Window>();

  constructor(
    private readonly store: Pick<SharedStore, 'incrWindow' | 'get'>,
    private readonly now: () => number = Date.now,
    private readonly phased = false,
  ) {}

  /** The index of the minute `who` is in now (its shared key's suffix). */
  minuteOf(who: Who): number {
    const shift = this.phased && typeof who === 'number' ? (who % 60) * 1000 : 0;
    return Math.floor((this.now() - shift) / 60_000);
  }

  /** Counts one request of the user in; false when the minute's limit is reached. */
  async admit(userId: Who, rpm: number): Promise<boolean> {
    const minute = this.minuteOf(userId);
    let w = this.windows.get(userId);
    if (!w || w.minute !== minute) {
      if (this.windows.size >= 100_000) this.sweep();
      this.windows.set(userId, (w = { minute, left: 0 }));
    }
    while (w.left === 0) {
      // One take at a time per user; callers waiting on it share what it brings.
      const window = w;
      window.taking ??= this.take(userId, window, rpm).finally(() => (window.taking = undefined));
      if ((await window.taking) === 0 && w.left === 0) return false;
    }
    w.left--;
    return true;
  }

  /** Takes the next chunk from the shared count; answers how many admissions it brought. */
  private async take(userId: Who, w: Window, rpm: number): Promise<number> {
    const want = Math.max(1, Math.min(Math.floor(rpm / MAX_CHUNK_SHARE), MAX_CHUNK));
    const key = windowKey(userId, w.minute);
    const count = await this.store.incrWindow(key, 60, want);
    const granted = Math.max(0, Math.min(want, rpm - (count - want)));
    // What the limit refuses goes back, so other nodes are not refused for admissions nobody has.
    if (granted < want) await this.store.incrWindow(key, 60, granted - want);
    w.left += granted;
    return granted;
  }

  /**
   * The user's requests this minute, for the dashboard: the shared count minus what this node
   * took and has not admitted yet (other nodes' untaken admissions still count, at most a chunk each).
   */
  async count(userId: Who): Promise<number> {
    const minute = this.minuteOf(userId);
    const shared = Number((await this.store.get(windowKey(userId, minute))) ?? 0);
    const w = this.windows.get(userId);
    return Math.max(0, shared - (w?.minute === minute ? w.left : 0));
  }

  private sweep(): void {
    for (const [id, w] of this.windows) if (w.minute !== this.minuteOf(id)) this.windows.delete(id);
  }
}
