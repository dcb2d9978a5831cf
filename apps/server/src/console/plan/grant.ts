import type { PlanDurationKind, SubscriptionSource } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { periodEnd } from '../../common/plan-window.js';
import type { Db } from '../../db/index.js';
import { insertSubscription, latestEndOfPlan, type PlanRow } from '../../db/repos/plans.js';

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

/** Every node drops its cached subscriptions of the user. */
export const subscriptionsChanged = (ctx: AppContext, userId: number) => ctx.store.publish(EVENTS.plans, String(userId));
