import type { Insertable } from 'kysely';
import type { Db } from '../index.js';
import type { LogsTable } from '../schema.js';

export type NewLog = Insertable<LogsTable>;

/** Writes one non-consumption log row (top-up, manage, system). Relay rows go through the batch recorder. */
export async function insertLog(db: Db, row: NewLog): Promise<void> {
  await db.insertInto('logs').values(row).execute();
}
