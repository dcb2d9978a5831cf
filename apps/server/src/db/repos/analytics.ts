import type { Db } from '../index.js';
import { LEASE_KIND } from './quota-leases.js';

/** Quota totals and counts over live users. */
export function userTotals(db: Db) {
  return db
    .selectFrom('users')
    .where('deleted_at', 'is', null)
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('total_quota'),
      eb.fn.coalesce(eb.fn.sum<number>('used_quota'), eb.lit(0)).as('total_used_quota'),
      eb.fn.countAll<number>().as('total_user'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('inviter_id', '>', 0).then(1).else(0).end()), eb.lit(0)).as('total_inviter_user'),
    ])
    .executeTakeFirstOrThrow();
}

/** What leases of every node hold of users' balances: part of the users' total quota (the column is lowered by it). */
export async function leasedUserQuota(db: Db): Promise<number> {
  const row = await db
    .selectFrom('quota_leases')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('owner_kind', '=', LEASE_KIND.user)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export function channelCountsByStatus(db: Db) {
  return db
    .selectFrom('channels')
    .where('deleted_at', 'is', null)
    .select((eb) => ['status', eb.fn.countAll<number>().as('total_channels')])
    .groupBy('status')
    .orderBy('status')
    .execute();
}

/** Redemption codes grouped by status, disabled (2) left out. */
export function redemptionCountsByStatus(db: Db) {
  return db
    .selectFrom('redemptions')
    .where('status', '!=', 2)
    .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota')])
    .groupBy('status')
    .orderBy('status')
    .execute();
}

export function successfulOrderTotalsByCurrency(db: Db) {
  return db
    .selectFrom('orders')
    .where('status', '=', 'success')
    .where('deleted_at', 'is', null)
    .select((eb) => ['order_currency', eb.fn.sum<number>('quota').as('quota'), eb.fn.sum<number>('order_amount').as('money')])
    .groupBy('order_currency')
    .orderBy('order_currency')
    .execute();
}

/** Users registered in [from, to] seconds (day bucketing happens in the service). */
export function registrationsBetween(db: Db, from: number, to: number) {
  return db.selectFrom('users').where('created_time', '>=', from).where('created_time', '<=', to).select(['created_time', 'inviter_id']).execute();
}

/** Redeemed codes in [from, to] seconds, with who redeemed them. */
export function redemptionsUsedBetween(db: Db, from: number, to: number) {
  return db
    .selectFrom('redemptions')
    .where('status', '=', 3)
    .where('redeemed_time', '>=', from)
    .where('redeemed_time', '<=', to)
    .select(['redeemed_time', 'quota', 'used_user_id'])
    .execute();
}

/** Successful orders created in [from, to] seconds. */
export function successfulOrdersBetween(db: Db, from: number, to: number) {
  return db
    .selectFrom('orders')
    .where('status', '=', 'success')
    .where('deleted_at', 'is', null)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .select(['created_at', 'order_amount'])
    .execute();
}
