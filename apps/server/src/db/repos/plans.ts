import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { PlansTable, SubscriptionsTable } from '../schema.js';
import { insertReturningId } from '../helpers.js';

export type PlanRow = Selectable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** Plans not deleted (only public, enabled ones when asked), or every plan ever defined with `withDeleted`. */
export function listPlans(db: Db, onlyPublic = false, withDeleted = false): Promise<PlanRow[]> {
  let q = db.selectFrom('plans').selectAll();
  if (!withDeleted) q = q.where('deleted_at', 'is', null);
  if (onlyPublic) q = q.where('public', '=', 1).where('enabled', '=', 1);
  return q.orderBy('sort', 'desc').orderBy('id', 'asc').execute();
}

export function findPlan(db: Db, id: number): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A plan by id even when deleted (a paid order or a code still grants it). */
export function findPlanEvenDeleted(db: Db, id: number): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export const insertPlan = (db: Db, row: Insertable<PlansTable>) => insertReturningId(db, 'plans', row);

export async function updatePlan(db: Db, id: number, patch: Updateable<PlansTable>): Promise<boolean> {
  const r = await db.updateTable('plans').set(patch).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function softDeletePlan(db: Db, id: number, now: number): Promise<boolean> {
  const r = await db.updateTable('plans').set({ deleted_at: now, enabled: 0 }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export const insertSubscription = (db: Db, row: Insertable<SubscriptionsTable>) => insertReturningId(db, 'subscriptions', row);

/** A user's subscriptions that have not ended by `now` and were not cancelled (active and queued). */
export function liveSubscriptions(db: Db, userId: number, now: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('end_at', '>', now)
    .orderBy('end_at', 'asc')
    .execute();
}

export function listSubscriptions(db: Db, userId: number | undefined, limit = 500): Promise<SubscriptionRow[]> {
  let q = db.selectFrom('subscriptions').selectAll();
  if (userId) q = q.where('user_id', '=', userId);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

export function findSubscription(db: Db, id: number): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function cancelSubscription(db: Db, id: number): Promise<boolean> {
  const r = await db.updateTable('subscriptions').set({ status: 'cancelled' }).where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** When the user's latest live subscription of the plan ends (a new one of the same plan starts then), or undefined. */
export async function latestEndOfPlan(db: Db, userId: number, planId: number, now: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.max('end_at').as('end'))
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .where('status', '=', 'active')
    .where('end_at', '>', now)
    .executeTakeFirst();
  return row?.end == null ? undefined : Number(row.end);
}

export async function readWindowUsage(db: Db, subscriptionId: number, windowStart: number): Promise<number> {
  const row = await db.selectFrom('plan_usage').select('used').where('subscription_id', '=', subscriptionId).where('window_start', '=', windowStart).executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** Adds settled spend to a window's row, creating it on the window's first write (a racing insert retries the update). */
export async function addWindowUsage(db: Db, subscriptionId: number, windowStart: number, amount: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await db
      .updateTable('plan_usage')
      .set((eb) => ({ used: eb('used', '+', amount) }))
      .where('subscription_id', '=', subscriptionId)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) return;
    try {
      await db.insertInto('plan_usage').values({ subscription_id: subscriptionId, window_start: windowStart, used: amount }).execute();
      return;
    } catch (error) {
      if (i === 2) throw error;
    }
  }
}

export async function setPlanFallback(db: Db, userId: number, enabled: boolean): Promise<void> {
  await db.updateTable('users').set({ plan_fallback: enabled ? 1 : 0 }).where('id', '=', userId).execute();
}

/** A stored JSON list of names; unreadable text reads as empty (= all). */
export function readNameList(text: string | null): string[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
