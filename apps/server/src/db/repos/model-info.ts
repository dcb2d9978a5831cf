import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { ModelInfoTable } from '../schema.js';

export type ModelInfoRow = Selectable<ModelInfoTable>;

export function listModelInfo(db: Db): Promise<ModelInfoRow[]> {
  return db.selectFrom('model_info').selectAll().orderBy('id', 'desc').execute();
}

export function findModelInfoById(db: Db, id: number): Promise<ModelInfoRow | undefined> {
  return db.selectFrom('model_info').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findModelInfoByModel(db: Db, model: string): Promise<ModelInfoRow | undefined> {
  return db.selectFrom('model_info').selectAll().where('model', '=', model).executeTakeFirst();
}

export async function insertModelInfo(db: Db, row: Insertable<ModelInfoTable>): Promise<void> {
  await db.insertInto('model_info').values(row).execute();
}

export async function updateModelInfo(db: Db, id: number, patch: Updateable<ModelInfoTable>): Promise<void> {
  await db.updateTable('model_info').set(patch).where('id', '=', id).execute();
}

export async function deleteModelInfo(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom('model_info').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
