import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { StoredResponsesTable } from '../schema.js';

export type StoredResponseRow = Selectable<StoredResponsesTable>;

export async function insertStoredResponse(db: Db, row: Insertable<StoredResponsesTable>): Promise<void> {
  await db.insertInto('stored_responses').values(row).execute();
}

export function findStoredResponse(db: Db, id: string): Promise<Pick<StoredResponseRow, 'user_id' | 'items' | 'expires_at'> | undefined> {
  return db.selectFrom('stored_responses').select(['user_id', 'items', 'expires_at']).where('id', '=', id).executeTakeFirst();
}

export async function deleteExpiredResponses(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('stored_responses').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
