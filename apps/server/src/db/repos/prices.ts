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

/** Prices not locked by an admin (the ones a sync may replace). */
export function listUnlockedPriceModels(db: Db): Promise<string[]> {
  return db.selectFrom('prices').select('model').where('locked', '=', 0).execute().then((rows) => rows.map((r) => r.model));
}

export async function deletePrices(db: Db, models: string[]): Promise<number> {
  if (!models.length) return 0;
  const result = await db.deleteFrom('prices').where('model', 'in', models).executeTakeFirst();
  return Number(result.numDeletedRows);
}
