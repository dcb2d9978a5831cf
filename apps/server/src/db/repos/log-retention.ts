import type { Db } from '../index.js';

/** Ids of the oldest log rows written before `before` (epoch seconds), at most `limit`. */
export async function logIdsBefore(db: Db, before: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('logs').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
  return rows.map((r) => Number(r.id));
}

/** Deletes log rows by id; answers how many went. */
export async function deleteLogsByIds(db: Db, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
