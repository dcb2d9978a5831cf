import type { PlanWindowKind } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { planWindowKey, windowAt } from '../../../common/plan-window.js';
import { addWindowUsage, findSubscription, listPlans, liveSubscriptions, readNameList, readWindowUsage, type SubscriptionRow } from '../../../db/repos/plans.js';

interface CachedPlan {
  id: number;
  windowKind: PlanWindowKind;
  windowQuota: number;
  groups: Set<string> | undefined;
  models: Set<string> | undefined;
}

/** Quota held on one subscription window for one request; settled or released exactly once. */
export interface PlanHold {
  subscriptionId: number;
  planId: number;
  windowStart: number;
  key: string;
  ttl: number;
  amount: number;
}

/** Every covering window is spent: the earliest time (epoch seconds) one resets; `tooLarge` when no window could ever hold the request. */
export interface PlanSpent {
  resetAt: number;
  tooLarge: boolean;
}

const SUBS_TTL_MS = 60_000;
const MAX_USERS = 50_000;
const FLUSH_MS = 2000;

/**
 * Subscription plans on the relay path: each user's live subscriptions are cached (dropped on any
 * change, all nodes hear it), and a covered request holds its worst-case cost on the subscription's
 * window counter in the shared store — one atomic increment that is undone when it passes the
 * window's quota, so concurrent requests on any node never overspend a window. Settled spend is
 * written behind to `plan_usage`, which seeds a window's counter when the store does not have it.
 */
export class PlanBook {
  private plans = new Map<number, CachedPlan>();
  private subs = new Map<number, { rows: SubscriptionRow[]; expires: number }>();
  private seeded = new Map<string, Promise<void>>();
  private pending = new Map<string, { subscriptionId: number; windowStart: number; amount: number }>();
  private readonly timer: NodeJS.Timeout;
  /** Replaceable for tests: windows, starts and ends are read from it. */
  now: () => number = Date.now;

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.plans, async (message) => {
      if (message) this.subs.delete(Number(message));
      else {
        this.subs.clear();
        await this.load();
      }
    });
    this.timer = setInterval(() => void this.flush().catch((e) => ctx.log.warn({ err: e }, 'plan usage not written')), FLUSH_MS);
    this.timer.unref();
  }

  async load(): Promise<void> {
    const next = new Map<number, CachedPlan>();
    // Deleted plans too: subscriptions running when a plan is deleted keep it until they end.
    for (const row of await listPlans(this.ctx.db, false, true)) {
      const groups = readNameList(row.groups);
      const models = readNameList(row.models);
      next.set(row.id, {
        id: row.id,
        windowKind: row.window_kind as PlanWindowKind,
        windowQuota: Number(row.window_quota),
        groups: groups.length ? new Set(groups) : undefined,
        models: models.length ? new Set(models) : undefined,
      });
    }
    this.plans = next;
  }

  private async subscriptionsOf(userId: number): Promise<SubscriptionRow[]> {
    const hit = this.subs.get(userId);
    if (hit && hit.expires > Date.now()) return hit.rows;
    const rows = await liveSubscriptions(this.ctx.db, userId, Math.floor(this.now() / 1000));
    if (this.subs.size >= MAX_USERS) this.subs.clear();
    this.subs.set(userId, { rows, expires: Date.now() + SUBS_TTL_MS });
    return rows;
  }

  /**
   * Holds `amount` on the first covering subscription whose window has room (soonest-ending first).
   * Answers the hold, `PlanSpent` when plans cover the request but every window is spent, or
   * undefined when no plan covers it. With `partial`, a window with some room holds what it has
   * left (a cost already incurred, e.g. a realtime response: the window is filled, never passed).
   */
  async hold(userId: number, group: string, model: string, amount: number, partial = false): Promise<PlanHold | PlanSpent | undefined> {
    // No plan was ever defined (deleted ones stay loaded): no subscription can cover anything, and no user is looked up.
    if (!this.plans.size) return undefined;
    const rows = await this.subscriptionsOf(userId);
    if (!rows.length) return undefined;
    const now = Math.floor(this.now() / 1000);
    let resetAt: number | undefined;
    let tooLarge = true;
    for (const sub of rows) {
      if (sub.start_at > now || sub.end_at <= now) continue;
      const plan = this.plans.get(sub.plan_id);
      if (!plan || (plan.groups && !plan.groups.has(group)) || (plan.models && !plan.models.has(model))) continue;
      const w = windowAt(plan.windowKind, sub.start_at, sub.end_at, now);
      const key = planWindowKey(sub.id, w.start);
      const ttl = Math.max(60, w.end - now + 3600);
      await this.seed(sub.id, w.start, key, ttl);
      if (amount <= plan.windowQuota || partial) {
        tooLarge = false;
        const n = await this.ctx.store.incrBy(key, amount, ttl);
        const hold = { subscriptionId: sub.id, planId: plan.id, windowStart: w.start, key, ttl, amount };
        if (n <= plan.windowQuota) return hold;
        // Over by `n - quota`: a partial hold gives back only that much (concurrent takers each give back their own excess).
        const back = partial ? Math.min(amount, n - plan.windowQuota) : amount;
        await this.ctx.store.incrBy(key, -back, ttl);
        if (back < amount) return { ...hold, amount: amount - back };
      }
      resetAt = Math.min(resetAt ?? Infinity, w.end);
    }
    return resetAt === undefined ? undefined : { resetAt, tooLarge };
  }

  /** A window's counter starts from what `plan_usage` recorded (once per node and window; never over a live counter). */
  private seed(subscriptionId: number, windowStart: number, key: string, ttl: number): Promise<void> {
    let done = this.seeded.get(key);
    if (!done) {
      done = readWindowUsage(this.ctx.db, subscriptionId, windowStart).then(async (used) => {
        await this.ctx.store.setIfAbsent(key, String(used), ttl);
      });
      done.catch(() => this.seeded.delete(key));
      if (this.seeded.size > 100_000) this.seeded.clear();
      this.seeded.set(key, done);
    }
    return done;
  }

  /** Settles a hold: the plan pays the cost up to the hold; the unused part goes back to the window. Answers what the plan paid. */
  settle(h: PlanHold, cost: number): number {
    const paid = Math.max(0, Math.min(cost, h.amount));
    if (paid < h.amount) void this.ctx.store.incrBy(h.key, paid - h.amount, h.ttl).catch((e) => this.ctx.log.warn({ err: e }, 'plan hold not returned'));
    if (paid > 0) this.add(h.subscriptionId, h.windowStart, paid);
    return paid;
  }

  private add(subscriptionId: number, windowStart: number, amount: number): void {
    const id = `${subscriptionId}:${windowStart}`;
    const entry = this.pending.get(id);
    if (entry) entry.amount += amount;
    else this.pending.set(id, { subscriptionId, windowStart, amount });
  }

  release(h: PlanHold): void {
    this.settle(h, 0);
  }

  /**
   * Gives spend back to a window (a task that failed after it was charged), only while that window
   * is still the subscription's current one. Answers false when the window has passed or the
   * subscription ended: the spend then stays where it was (it never becomes balance).
   */
  async refund(subscriptionId: number, windowStart: number, amount: number): Promise<boolean> {
    const sub = await findSubscription(this.ctx.db, subscriptionId);
    const plan = sub && this.plans.get(sub.plan_id);
    const now = Math.floor(this.now() / 1000);
    if (!sub || !plan || sub.status !== 'active' || sub.end_at <= now) return false;
    const w = windowAt(plan.windowKind, sub.start_at, sub.end_at, now);
    if (w.start !== windowStart) return false;
    const key = planWindowKey(sub.id, w.start);
    const ttl = Math.max(60, w.end - now + 3600);
    await this.seed(sub.id, w.start, key, ttl);
    await this.ctx.store.incrBy(key, -amount, ttl);
    this.add(sub.id, w.start, -amount);
    return true;
  }

  /** Writes settled window spend to `plan_usage`. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending.clear();
    for (const [i, u] of batch.entries()) {
      try {
        await addWindowUsage(this.ctx.db, u.subscriptionId, u.windowStart, u.amount);
      } catch (error) {
        // Kept for the next flush (with whatever settled meanwhile): the record loses nothing.
        for (const rest of batch.slice(i)) this.add(rest.subscriptionId, rest.windowStart, rest.amount);
        throw error;
      }
    }
  }

  /** What a log row says of a request a plan paid for (the row's own quota is what the balance paid). */
  static logFields(h: PlanHold, paid: number): { plan_id: number; subscription_id: number; plan_quota: number } {
    return { plan_id: h.planId, subscription_id: h.subscriptionId, plan_quota: paid };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
