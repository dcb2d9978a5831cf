import type { Db } from '../index.js';

export interface ModelOwnerRow {
  id: number;
  name: string;
  icon: string;
}

export function listModelOwners(db: Db): Promise<ModelOwnerRow[]> {
  return db.selectFrom('model_owned_by').selectAll().orderBy('id').execute();
}

export function findModelOwner(db: Db, id: number): Promise<ModelOwnerRow | undefined> {
  return db.selectFrom('model_owned_by').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertModelOwner(db: Db, row: ModelOwnerRow): Promise<void> {
  await db.insertInto('model_owned_by').values(row).execute();
}

export async function updateModelOwner(db: Db, row: ModelOwnerRow): Promise<boolean> {
  const r = await db.updateTable('model_owned_by').set({ name: row.name, icon: row.icon }).where('id', '=', row.id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteModelOwner(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom('model_owned_by').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
