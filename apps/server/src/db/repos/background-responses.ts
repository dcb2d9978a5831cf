import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { BackgroundResponsesTable } from '../schema.js';

export type BackgroundRow = Selectable<BackgroundResponsesTable>;

export async function insertBackground(db: Db, row: Insertable<BackgroundResponsesTable>): Promise<void> {
  await db.insertInto('background_responses').values(row).execute();
}

export function findBackground(db: Db, id: string): Promise<BackgroundRow | undefined> {
  return db.selectFrom('background_responses').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Upstream rows (responses and Gemini interactions) still waiting for their final usage, oldest first. */
export function pendingUpstream(db: Db, limit: number): Promise<BackgroundRow[]> {
  return db.selectFrom('background_responses').selectAll().where('status', '=', 'pending').where('kind', 'in', ['upstream', 'interaction']).orderBy('created_at').limit(limit).execute();
}

/**
 * Ends a pending row with its final status and what it was billed; answers whether this call
 * ended it. The one conditional update makes settlement exactly once across nodes and callers.
 */
export async function endBackground(db: Db, id: string, status: string, billed: number, now: number, response?: string): Promise<boolean> {
  const result = await db
    .updateTable('background_responses')
    .set({ status, billed, updated_at: now, ...(response === undefined ? {} : { response }) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A local run's progress: its latest response object and the events so far. */
export async function saveLocalProgress(db: Db, id: string, response: string, events: string, now: number): Promise<void> {
  await db.updateTable('background_responses').set({ response, events, updated_at: now }).where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function deleteBackground(db: Db, id: string): Promise<void> {
  await db.deleteFrom('background_responses').where('id', '=', id).execute();
}

/** Local runs of a node that is gone (a restart) can never finish: they end as failed. */
export async function failOrphanedLocal(db: Db, liveNode: string, now: number, quietSeconds: number): Promise<number> {
  const result = await db
    .updateTable('background_responses')
    .set({ status: 'failed', updated_at: now })
    .where('status', '=', 'pending')
    .where('kind', '=', 'local')
    .where('node', '!=', liveNode)
    .where('updated_at', '<', now - quietSeconds)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ended rows last changed before `before`: their charge is settled and their events are past retention. */
export async function deleteEndedBackground(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('background_responses').where('status', '!=', 'pending').where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
