import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index.js';
import { dialectOf } from '../helpers.js';
import type { StoredResponsesTable } from '../schema.js';

export type StoredResponseRow = Selectable<StoredResponsesTable>;
export type FoundResponse = Pick<StoredResponseRow, 'user_id' | 'channel_id' | 'items' | 'response' | 'expires_at'>;

export async function insertStoredResponse(db: Db, row: Insertable<StoredResponsesTable>): Promise<void> {
  await db.insertInto('stored_responses').values(row).execute();
}

/** A batch of ownership rows; an id already kept (a retried write) is left as it is. */
export async function insertStoredResponses(db: Db, rows: Insertable<StoredResponsesTable>[]): Promise<void> {
  const mysql = dialectOf(db) === 'mysql';
  for (let i = 0; i < rows.length; i += 200) {
    const insert = db.insertInto('stored_responses').values(rows.slice(i, i + 200));
    await (mysql ? insert.ignore() : insert.onConflict((oc) => oc.column('id').doNothing())).execute();
  }
}

export function findStoredResponse(db: Db, id: string): Promise<FoundResponse | undefined> {
  return db.selectFrom('stored_responses').select(['user_id', 'channel_id', 'items', 'response', 'expires_at']).where('id', '=', id).executeTakeFirst();
}

export async function deleteStoredResponse(db: Db, id: string): Promise<void> {
  await db.deleteFrom('stored_responses').where('id', '=', id).execute();
}

export async function deleteExpiredResponses(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('stored_responses').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What a response the gateway ran in the background ended with: its conversation and final object. */
export async function updateStoredResponse(db: Db, id: string, fields: { items?: string; response: string }): Promise<void> {
  await db.updateTable('stored_responses').set(fields).where('id', '=', id).execute();
}
