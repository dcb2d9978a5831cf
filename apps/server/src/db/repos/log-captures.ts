import type { Insertable } from 'kysely';
import type { Db } from '../index.js';
import type { LogCapturesTable } from '../schema.js';

export async function insertCapture(db: Db, row: Insertable<LogCapturesTable>): Promise<void> {
  await db.insertInto('log_captures').values(row).execute();
}

export function capturesOf(db: Db, requestId: string) {
  return db.selectFrom('log_captures').selectAll().where('request_id', '=', requestId).orderBy('id').limit(20).execute();
}

export async function deleteCapturesBefore(db: Db, timestamp: number): Promise<number> {
  const result = await db.deleteFrom('log_captures').where('created_at', '<', timestamp).executeTakeFirst();
  return Number(result.numDeletedRows);
}
