import type { Db } from '../index.js';

/**
 * Ids of the oldest log rows written before `before` (epoch seconds), at most `limit`; of one
 * type when given. Both forms walk an index from its start ((created_at, type) or
 * (type, created_at)), and rows already deleted are gone from it, so each batch reads only
 * about `limit` entries however many rows the whole deletion covers.
 */
export async function logIdsBefore(db: Db, before: number, limit: number, type?: number): Promise<number[]> {
  let q = db.selectFrom('logs').select('id').where('created_at', '<', before);
  if (type !== undefined) q = q.where('type', '=', type);
  const rows = await q.orderBy('created_at').limit(limit).execute();
  return rows.map((r) => Number(r.id));
}

/** Deletes log rows by id; answers how many went. */
export async function deleteLogsByIds(db: Db, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
