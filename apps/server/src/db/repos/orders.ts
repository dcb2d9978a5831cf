import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { OrdersTable } from '../schema.js';

export type OrderRow = Selectable<OrdersTable>;

export async function insertOrder(db: Db, row: Insertable<OrdersTable>): Promise<void> {
  await db.insertInto('orders').values(row).execute();
}

export function findUserOrder(db: Db, userId: number, tradeNo: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('trade_no', '=', tradeNo).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Whether the user has a pending order for the plan created at or after `since` (older ones are being closed as stale). */
export async function hasPendingPlanOrder(db: Db, userId: number, planId: number, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .where('status', '=', 'pending')
    .where('created_at', '>=', since)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Pending orders created before `before` become closed (api.md §1.11); answers how many. */
export async function closeStaleOrders(db: Db, before: number, now: number): Promise<number> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'closed', updated_at: now })
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface OrderFilter {
  user_id?: number;
  gateway_id?: number;
  trade_no?: string;
  gateway_no?: string;
  status?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

export function orderListQuery(db: Db, f: OrderFilter) {
  let query = db.selectFrom('orders').selectAll().where('deleted_at', 'is', null);
  if (f.user_id) query = query.where('user_id', '=', f.user_id);
  if (f.gateway_id) query = query.where('gateway_id', '=', f.gateway_id);
  if (f.trade_no) query = query.where('trade_no', '=', f.trade_no);
  if (f.gateway_no) query = query.where('gateway_no', '=', f.gateway_no);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.start_timestamp) query = query.where('created_at', '>=', f.start_timestamp);
  if (f.end_timestamp) query = query.where('created_at', '<=', f.end_timestamp);
  return query;
}

export const ORDER_ORDER_COLUMNS = ['id', 'gateway_id', 'user_id', 'status', 'created_at'] as const;

export function findOrderByTradeNo(db: Db, tradeNo: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('trade_no', '=', tradeNo).where('deleted_at', 'is', null).executeTakeFirst();
}

/**
 * pending (or closed, for a late payment) → success in one conditional update per state: of any number
 * of replayed or concurrent notices exactly one wins. Answers the state it moved the order from.
 */
export async function markOrderPaid(db: Db, id: number, gatewayNo: string, now: number): Promise<'pending' | 'closed' | null> {
  for (const from of ['pending', 'closed'] as const) {
    const result = await db
      .updateTable('orders')
      .set({ status: 'success', gateway_no: gatewayNo, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return from;
  }
  return null;
}

/** pending or closed → failed with the reason; answers whether this call changed it. */
export async function markOrderFailed(db: Db, id: number, gatewayNo: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'failed', gateway_no: gatewayNo, fail_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'closed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
