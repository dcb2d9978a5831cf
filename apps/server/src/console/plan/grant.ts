import type { PlanDurationKind, SubscriptionSource } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { periodEnd } from '../../common/plan-window.js';
import type { Db } from '../../db/index.js';
import { insertSubscription, latestEndOfPlan, type PlanRow } from '../../db/repos/plans.js';
import { lockInOrder } from '../../db/locks.js';

/**
 * Starts a subscription of `plan` for a user (inside the caller's transaction when given one). A user
 * who already holds the plan gets the new period queued after the current one ends, so a renewal
 * never overlaps or shortens what was paid for.
 */
export async function grantPlan(db: Db, userId: number, plan: PlanRow, source: SubscriptionSource, ref: string, now: number): Promise<number> {
  const start = Math.max(now, (await latestEndOfPlan(db, userId, plan.id, now)) ?? now);
  const end = periodEnd(start, plan.duration_kind as PlanDurationKind, Number(plan.duration_count));
  return insertSubscription(db, { user_id: userId, plan_id: plan.id, start_at: start, end_at: end, status: 'active', source, source_ref: ref.slice(0, 64), created_at: now });
}

/**
 * Starts the subscription a paid order bought (inside the payment's transaction), with the user's
 * row locked so one user's payments are granted one after another. A plan that does not renew and
 * already runs is not granted again: answers 'held', and the caller credits the payment instead.
 */
export async function grantPaidPlan(trx: Db, userId: number, plan: PlanRow, ref: string, now: number): Promise<'granted' | 'held'> {
  await lockInOrder(trx, 'users', [userId]);
  if (plan.renews !== 1 && (await latestEndOfPlan(trx, userId, plan.id, now)) !== undefined) return 'held';
  await grantPlan(trx, userId, plan, 'order', ref, now);
  return 'granted';
}

/** The plan's price as balance (USD, or CNY at `usdRate`, times the quota per unit), for a payment that cannot start it. */
export function planPriceQuota(plan: PlanRow, quotaPerUnit: number, usdRate: number): number {
  const usd = Number(plan.price_cents) / 100 / (plan.currency === 'CNY' ? usdRate : 1);
  return Math.round(usd * quotaPerUnit);
}

/** Every node drops its cached subscriptions of the user. */
export const subscriptionsChanged = (ctx: AppContext, userId: number) => ctx.store.publish(EVENTS.plans, String(userId));
