import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { PaymentsTable } from '../schema.js';
import { insertReturningId } from '../helpers.js';
import { likeMatch, likeText } from './like.js';

export type PaymentRow = Selectable<PaymentsTable>;

const live = (db: Db) => db.selectFrom('payments').selectAll().where('deleted_at', 'is', null);

export function findPaymentById(db: Db, id: number): Promise<PaymentRow | undefined> {
  return live(db).where('id', '=', id).executeTakeFirst();
}

export function findEnabledPaymentByUuid(db: Db, uuid: string): Promise<PaymentRow | undefined> {
  return live(db).where('uuid', '=', uuid).where('enable', '=', 1).executeTakeFirst();
}

export function listEnabledPayments(db: Db): Promise<PaymentRow[]> {
  return live(db).where('enable', '=', 1).orderBy('sort', 'desc').orderBy('id').execute();
}

export function insertPayment(db: Db, row: Insertable<PaymentsTable>): Promise<number> {
  return insertReturningId(db, 'payments', row);
}

export async function updatePayment(db: Db, id: number, patch: Updateable<PaymentsTable>): Promise<boolean> {
  const result = await db.updateTable('payments').set(patch).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes a gateway whose setup failed right after its insert. */
export async function hardDeletePayment(db: Db, id: number): Promise<void> {
  await db.deleteFrom('payments').where('id', '=', id).execute();
}

export async function softDeletePayment(db: Db, id: number, now: number): Promise<boolean> {
  return updatePayment(db, id, { deleted_at: now, enable: 0 });
}

export interface PaymentFilter {
  type?: string;
  name?: string;
  uuid?: string;
  currency?: string;
}

export function paymentListQuery(db: Db, f: PaymentFilter) {
  let query = live(db);
  if (f.type) query = query.where('type', '=', f.type);
  if (f.name) query = query.where(likeMatch('name', `${likeText(f.name)}%`));
  if (f.uuid) query = query.where('uuid', '=', f.uuid);
  if (f.currency) query = query.where('currency', '=', f.currency);
  return query;
}

export const PAYMENT_ORDER_COLUMNS = ['id', 'uuid', 'name', 'type', 'sort', 'enable', 'created_at'] as const;
