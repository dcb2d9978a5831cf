import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { nowSeconds } from '../../../common/time.js';
import { LEASE_KIND, readBalance, reclaimExpiredLeases, renewLeases, returnLease, takeLease, type LeaseKind } from '../../../db/repos/quota-leases.js';

/** One node's slice of one balance (a user's quota or a limited token's remaining quota). */
interface Lease {
  kind: LeaseKind;
  ownerId: number;
  /** The lease row; undefined until the first slice is taken or after the row was dropped or lost. */
  rowId: number | undefined;
  /** Taken from the balance and not held by any request: what new holds are served from. */
  free: number;
  /** Held by requests in flight (of this version). */
  held: number;
  /** Sum of the holds taken since the last tick, and its smoothed rate per second. */
  used: number;
  rate: number;
  /** Seconds without a hold. */
  idle: number;
  /** Bumped when the row is revoked or lost: holds of an older version settle against the balance. */
  version: number;
  refill?: Promise<void>;
  /** Holds waiting on a refill of this slice: it is not idle while they wait. */
  waiting: number;
  /** Holds of the asked size a slice is cut for: doubles with every top-up, so steady small traffic refills rarely. */
  holds: number;
  /**
   * The balance column still held at least the slice when it was last topped up: an idle slice
   * like that is kept (another node can still cut one as large), else it goes back after idleSeconds.
   */
  covered: boolean;
  /** The tick of the last hold: a kept slice goes back keepSeconds after it. */
  lastTick: number;
}

/** A hold served from leases; settled exactly once. */
export interface LeaseHold {
  amount: number;
  user: Lease;
  userVersion: number;
  userRow: number | undefined;
  token?: Lease;
  tokenVersion: number;
  tokenRow: number | undefined;
}

export type HoldResult = LeaseHold | 'user' | 'token';

/** Spend of one settled hold, for the recorder: against the lease row it was held from, or the balance. */
export interface SpendTarget {
  kind: LeaseKind;
  ownerId: number;
  rowId: number | undefined;
}

export interface LeaseTiming {
  /** Seconds a lease row lives without renewal; a crashed node's leases come back this long after its last renewal. */
  ttlSeconds: number;
  /** Seconds of recent demand a slice is sized for. */
  sliceSeconds: number;
  /** Seconds without holds after which a lease's free part goes back to the balance. */
  idleSeconds: number;
  /** Seconds an idle slice the balance column covered is kept before it goes back (it returns sooner when another node asks for it). */
  keepSeconds: number;
}

const keyOf = (l: Lease) => (l.kind === LEASE_KIND.user ? `u${l.ownerId}` : `t${l.ownerId}`);

/** A slice covers at least this many holds of the size just asked for, and grows to at most MAX_SLICE_HOLDS. */
const MIN_SLICE_HOLDS = 4;
const MAX_SLICE_HOLDS = 64;
const TICK_MS = 1000;

/**
 * Quota holds without a database round trip: each node leases slices of a balance (one
 * conditional update moves them out of the balance column into a lease row), serves holds
 * from memory, refills a slice in the background before it runs out, and gives back what
 * it does not use when idle or shutting down. A crashed node's rows expire and any node
 * gives their amount back. See docs/decisions/0017-quota-leases.md.
 */
export class LeaseBook {
  readonly node = `${process.pid}-${randomBytes(6).toString('hex')}`;
  private leases = new Map<string, Lease>();
  /** Leases held from or topped up within the last idleSeconds: the once-a-second upkeep walks these only, not every kept slice. */
  private active = new Set<Lease>();
  private ticks = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly timing: LeaseTiming,
  ) {
    this.timer = setInterval(() => void this.tick().catch((e) => ctx.log.warn({ err: e }, 'lease upkeep failed')), TICK_MS);
    this.timer.unref();
    ctx.store.subscribe(EVENTS.leases, (message) => this.revoked(message));
    ctx.store.subscribe(EVENTS.leaseWanted, (message) => this.wanted(message));
  }

  /** Gives back the leases of crashed nodes that expired (at start-up and every few seconds). */
  reclaim(): Promise<number> {
    return reclaimExpiredLeases(this.ctx.db, nowSeconds());
  }

  private lease(kind: LeaseKind, ownerId: number): Lease {
    const key = kind === LEASE_KIND.user ? `u${ownerId}` : `t${ownerId}`;
    let l = this.leases.get(key);
    if (!l) {
      l = { kind, ownerId, rowId: undefined, free: 0, held: 0, used: 0, rate: 0, idle: 0, version: 0, waiting: 0, holds: MIN_SLICE_HOLDS, covered: false, lastTick: this.ticks };
      this.leases.set(key, l);
    }
    return l;
  }

  /**
   * Holds `amount` on the user and, for a limited token, on the token. Served from memory
   * when both slices have it; otherwise refills them from the balances and answers which
   * balance cannot cover the amount.
   */
  async hold(userId: number, tokenId: number, limitedToken: boolean, amount: number): Promise<HoldResult> {
    const user = this.lease(LEASE_KIND.user, userId);
    const token = limitedToken ? this.lease(LEASE_KIND.token, tokenId) : undefined;
    if (!(user.free < amount || (token && token.free < amount))) return this.take(user, token, amount);
    user.waiting++;
    if (token) token.waiting++;
    try {
      return await this.holdSlowly(user, token, amount);
    } finally {
      user.waiting--;
      if (token) token.waiting--;
    }
  }

  /** A hold that needs a refill first: a slice being refilled for it is not given back as idle meanwhile. */
  private async holdSlowly(user: Lease, token: Lease | undefined, amount: number): Promise<HoldResult> {
    for (let round = 0; ; round++) {
      const tokenShort = token !== undefined && token.free < amount;
      const userShort = user.free < amount;
      if (!tokenShort && !userShort) return this.take(user, token, amount);
      if (round === 3 || this.closed) return tokenShort ? 'token' : 'user';
      // The token first: its shortfall is the one the caller is told about. A slice revoked or
      // lost while it refilled (an admin's change, a renewal that found it reclaimed) is no
      // answer about the balance: the next round asks again.
      const versions = [user.version, token?.version];
      if (tokenShort && !(await this.refill(token!, amount))) {
        if (token!.version !== versions[1]) continue;
        return 'token';
      }
      if (user.free < amount && !(await this.refill(user, amount))) {
        if (user.version !== versions[0]) continue;
        return 'user';
      }
    }
  }

  /** Holds `amount`, or what the balance (and a limited token) have left when that is less; undefined when nothing is left. */
  async holdUpTo(userId: number, tokenId: number, limitedToken: boolean, amount: number): Promise<LeaseHold | undefined> {
    // Waiting from the first try to the second: the free part it counted on is not given back in between.
    const leases = [this.lease(LEASE_KIND.user, userId), ...(limitedToken ? [this.lease(LEASE_KIND.token, tokenId)] : [])];
    for (const l of leases) l.waiting++;
    try {
      const all = await this.hold(userId, tokenId, limitedToken, amount);
      if (typeof all !== 'string') return all;
      const left = Math.min(amount, await this.available(userId, tokenId, limitedToken));
      const some = left > 0 ? await this.hold(userId, tokenId, limitedToken, left) : undefined;
      return typeof some === 'object' ? some : undefined;
    } finally {
      for (const l of leases) l.waiting--;
    }
  }

  /** What a hold could get right now: this node's free slices plus the balance columns (a database read). */
  async available(userId: number, tokenId: number, limitedToken: boolean): Promise<number> {
    const user = this.lease(LEASE_KIND.user, userId).free + (await readBalance(this.ctx.db, LEASE_KIND.user, userId));
    if (!limitedToken) return user;
    return Math.min(user, this.lease(LEASE_KIND.token, tokenId).free + (await readBalance(this.ctx.db, LEASE_KIND.token, tokenId)));
  }

  private take(user: Lease, token: Lease | undefined, amount: number): LeaseHold {
    for (const l of token ? [user, token] : [user]) {
      l.free -= amount;
      l.held += amount;
      l.used += amount;
      l.idle = 0;
      l.lastTick = this.ticks;
      this.active.add(l);
      if (l.free < this.sliceOf(l, amount) / 2) void this.refill(l, amount);
    }
    return {
      amount,
      user,
      userVersion: user.version,
      userRow: user.rowId,
      token,
      tokenVersion: token?.version ?? 0,
      tokenRow: token?.rowId,
    };
  }

  /**
   * A slice covers recent demand, at least a few holds of this size, and every hold waiting on a
   * refill: a burst on a fresh or idle slice (no demand measured yet) is served by one refill
   * instead of a few holds per refill, with the rest refused after their rounds.
   */
  private sliceOf(l: Lease, amount: number): number {
    return Math.max(amount * Math.max(l.holds, l.waiting), Math.ceil(l.rate * this.timing.sliceSeconds));
  }

  /** Tops a slice up from the balance (one refill at a time per lease); true when `need` is now free. */
  private async refill(l: Lease, need: number): Promise<boolean> {
    while (l.refill) {
      await l.refill;
      if (l.free >= need) return true;
    }
    if (l.free >= need) return true;
    const missing = need - l.free;
    const want = Math.max(missing, this.sliceOf(l, need) - l.free);
    const version = l.version;
    this.active.add(l);
    l.refill = takeLease(this.ctx.db, l.kind, l.ownerId, l.rowId, this.node, missing, want, nowSeconds() + this.timing.ttlSeconds)
      .then((grant) => {
        if (grant.taken === 0 || grant.rowId === undefined) {
          // Short: idle slices other nodes keep of this balance are asked back for the next hold.
          if (l.version === version) void this.ctx.store.publish(EVENTS.leaseWanted, `${l.kind}:${l.ownerId}:${this.node}`).catch(() => undefined);
          return;
        }
        if (l.version !== version) {
          // Revoked meanwhile: the grant may predate the revocation, so it is not served from.
          void returnLease(this.ctx.db, l.kind, l.ownerId, grant.rowId, grant.taken, true).catch((e) => this.ctx.log.warn({ err: e }, 'lease return failed'));
          return;
        }
        if (grant.rowId !== l.rowId) {
          // A new row: the old one is gone, and what it still showed here went back with it.
          if (l.rowId !== undefined) this.lost(l);
          l.rowId = grant.rowId;
        }
        l.free += grant.taken;
        l.covered = grant.left >= l.free;
        // Grows only while the column holds several such slices more: a small balance shared by
        // nodes stays in small slices, so one node does not take what another's next hold needs.
        if (grant.left >= 4 * l.free) l.holds = Math.min(MAX_SLICE_HOLDS, l.holds * 2);
      })
      .finally(() => {
        l.refill = undefined;
      });
    await l.refill;
    return l.free >= need;
  }

  /**
   * Settles a hold to what the request cost: the unused part goes back to the slices, and
   * anything above the hold is taken from them only as far as they have it free (a balance
   * never goes below zero; callers hold a larger excess again with `holdUpTo`). Answers the amount billed.
   */
  settle(h: LeaseHold, cost: number): number {
    let billed = Math.max(0, Math.min(cost, h.amount));
    const extra = cost - h.amount;
    const user = h.user.version === h.userVersion ? h.user : undefined;
    const token = h.token && h.token.version === h.tokenVersion ? h.token : undefined;
    if (extra > 0 && user && (token || !h.token)) {
      const more = Math.min(extra, user.free, token ? token.free : Infinity);
      user.free -= more;
      if (token) token.free -= more;
      billed += more;
    }
    const back = h.amount - Math.min(billed, h.amount);
    // What comes back is looked after by the upkeep again (an idle slice it no longer covers goes back).
    if (user) {
      user.held -= h.amount;
      user.free += back;
      if (back > 0) this.active.add(user);
    }
    if (token) {
      token.held -= h.amount;
      token.free += back;
      if (back > 0) this.active.add(token);
    }
    return billed;
  }

  /** Where a settled hold's spend is written: the row it was held from (gone rows charge the balance). */
  spendTargets(h: LeaseHold): { user: SpendTarget; token?: SpendTarget } {
    return {
      user: { kind: LEASE_KIND.user, ownerId: h.user.ownerId, rowId: h.userRow },
      token: h.token ? { kind: LEASE_KIND.token, ownerId: h.token.ownerId, rowId: h.tokenRow } : undefined,
    };
  }

  /** The row was revoked or reclaimed: what it held here is no longer this node's to serve. */
  private lost(l: Lease): void {
    l.free = 0;
    l.held = 0;
    l.rowId = undefined;
    l.version++;
    l.holds = MIN_SLICE_HOLDS;
    l.covered = false;
  }

  /** `kind:ownerId` published after a revocation (an absolute or negative balance change). */
  private revoked(message: string): void {
    const [kind, id] = message.split(':').map(Number);
    const l = this.leases.get(kind === LEASE_KIND.user ? `u${id}` : `t${id}`);
    if (l) this.lost(l);
  }

  /** `kind:ownerId:node` published by a node whose top-up found the balance short: an idle slice kept here (another node) goes back now. */
  private wanted(message: string): void {
    const [kindText, idText, node] = message.split(':');
    if (node === this.node) return;
    const kind = Number(kindText);
    const id = Number(idText);
    const key = kind === LEASE_KIND.user ? `u${id}` : `t${id}`;
    const l = this.leases.get(key);
    // Only a slice kept past its idle time: one in use here serves this node's own next holds.
    if (!l || l.free === 0 || l.refill || l.waiting || this.active.has(l)) return;
    void this.giveBack(key, l).catch((e) => this.ctx.log.warn({ err: e }, 'lease return failed'));
  }

  /**
   * Once a second, over the leases active lately only: demand rates and idle ends (a slice the
   * balance covered is kept, others go back). Every third of the TTL: renewal, reclaiming, and kept
   * slices idle for keepSeconds go back (the only walk over every lease, like the renewal itself).
   */
  private async tick(): Promise<void> {
    this.ticks++;
    const returns: Promise<unknown>[] = [];
    for (const l of this.active) {
      l.rate = Math.max(l.used, l.rate * 0.7 + l.used * 0.3);
      if (l.used === 0) l.idle++;
      l.used = 0;
      if (l.idle < this.timing.idleSeconds || l.refill || l.waiting) continue;
      this.active.delete(l);
      l.rate = 0;
      if (!(l.covered && l.held === 0 && l.free > 0)) returns.push(this.giveBack(keyOf(l), l));
    }
    const every = Math.max(1, Math.floor(this.timing.ttlSeconds / 3));
    if (this.ticks % every === 0) {
      for (const [key, l] of this.leases) {
        if (!this.active.has(l) && this.ticks - l.lastTick >= this.timing.keepSeconds && !l.refill && !l.waiting) returns.push(this.giveBack(key, l));
      }
    }
    await Promise.all(returns);
    if (this.ticks % every === 0) {
      const live = await renewLeases(this.ctx.db, this.node, nowSeconds() + this.timing.ttlSeconds);
      for (const l of this.leases.values()) if (l.rowId !== undefined && !live.has(l.rowId)) this.lost(l);
      await this.reclaim();
    }
  }

  /** Returns a lease's free part to the balance; forgets the lease once nothing of it is left. */
  private async giveBack(key: string, l: Lease): Promise<void> {
    if (l.rowId === undefined) {
      if (l.held === 0 && l.free === 0) this.forget(key, l);
      return;
    }
    const amount = l.free;
    const rowId = l.rowId;
    const version = l.version;
    l.free = 0;
    l.holds = MIN_SLICE_HOLDS;
    try {
      const result = await returnLease(this.ctx.db, l.kind, l.ownerId, rowId, amount, l.held === 0);
      if (l.version !== version) return;
      if (result === 'gone') this.lost(l);
      else if (result === 'dropped') l.rowId = undefined;
      if (l.rowId === undefined && l.held === 0 && l.free === 0 && !l.refill) this.forget(key, l);
    } catch (error) {
      if (l.version === version) l.free += amount;
      throw error;
    }
  }

  private forget(key: string, l: Lease): void {
    if (this.leases.get(key) === l) this.leases.delete(key);
    this.active.delete(l);
  }

  /** Gives every free part back now, so the balance columns show all that is not held (tests, exact reads). */
  async settleUp(): Promise<void> {
    for (const l of this.leases.values()) await l.refill;
    // A slice a hold is waiting on stays: giving its free part back would refuse that hold.
    await Promise.all([...this.leases].filter(([, l]) => !l.waiting && !l.refill).map(([key, l]) => this.giveBack(key, l)));
  }

  /** Shutdown, after the recorder's last flush: every free part goes back. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const l of this.leases.values()) await l.refill;
    await Promise.all([...this.leases].map(([key, l]) => this.giveBack(key, l).catch((e) => this.ctx.log.warn({ err: e }, 'lease return failed'))));
  }
}
