import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { PricesTable } from '../schema.js';

export type PriceRow = Selectable<PricesTable>;

export function listPrices(db: Db): Promise<PriceRow[]> {
  return db.selectFrom('prices').selectAll().orderBy('channel_type').orderBy('model').execute();
}

export function findPrice(db: Db, model: string): Promise<PriceRow | undefined> {
  return db.selectFrom('prices').selectAll().where('model', '=', model).executeTakeFirst();
}

export async function insertPrice(db: Db, row: Insertable<PricesTable>): Promise<void> {
  await db.insertInto('prices').values(row).execute();
}

export async function deletePrices(db: Db, models: string[]): Promise<number> {
  if (!models.length) return 0;
  const result = await db.deleteFrom('prices').where('model', 'in', models).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function listModelOwners(db: Db) {
  return db.selectFrom('model_owned_by').selectAll().orderBy('id').execute();
}

export function findModelOwner(db: Db, id: number) {
  return db.selectFrom('model_owned_by').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function upsertModelOwner(db: Db, row: { id: number; name: string; icon: string }): Promise<void> {
  const updated = await db.updateTable('model_owned_by').set({ name: row.name, icon: row.icon }).where('id', '=', row.id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await db.insertInto('model_owned_by').values(row).execute();
}

export async function deleteModelOwner(db: Db, id: number): Promise<void> {
  await db.deleteFrom('model_owned_by').where('id', '=', id).execute();
}
