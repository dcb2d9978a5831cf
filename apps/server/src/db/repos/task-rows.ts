import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { MidjourneysTable, TasksTable } from '../schema.js';
import { insertReturningId } from '../helpers.js';
import type { MidjourneyRow, TaskRow } from './tasks.js';

/** Relay writes and reads of task rows; every read for a caller is limited to the caller's rows. */

export const insertMidjourney = (db: Db, row: Insertable<MidjourneysTable>) => insertReturningId(db, 'midjourneys', row);

export function findOwnMidjourney(db: Db, userId: number, mjId: string): Promise<MidjourneyRow | undefined> {
  return db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
}

export function listOwnMidjourneys(db: Db, userId: number, mjIds: string[]): Promise<MidjourneyRow[]> {
  if (!mjIds.length) return Promise.resolve([]);
  return db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).where('mj_id', 'in', mjIds).orderBy('id').execute();
}

export function findChannelMidjourney(db: Db, channelId: number, mjId: string): Promise<MidjourneyRow | undefined> {
  return db.selectFrom('midjourneys').selectAll().where('channel_id', '=', channelId).where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
}

/** Any user's task: only for reads the caller proved a right to (a signed link, an admin). */
export function findMidjourneyByMjId(db: Db, mjId: string): Promise<MidjourneyRow | undefined> {
  return db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
}

export function findMidjourneyById(db: Db, id: number): Promise<MidjourneyRow | undefined> {
  return db.selectFrom('midjourneys').selectAll().where('id', '=', id).executeTakeFirst();
}

export function pendingMidjourneys(db: Db, limit: number): Promise<MidjourneyRow[]> {
  return db.selectFrom('midjourneys').selectAll().where('progress', '<>', '100%').orderBy('id').limit(limit).execute();
}

/** Updates a task that has not ended (an ended task, refunded or done, stays as it is). */
export async function updatePendingMidjourney(db: Db, id: number, set: Updateable<MidjourneysTable>): Promise<boolean> {
  const r = await db.updateTable('midjourneys').set(set).where('id', '=', id).where('progress', '<>', '100%').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const insertTask = (db: Db, row: Insertable<TasksTable>) => insertReturningId(db, 'tasks', row);

export function findOwnTask(db: Db, userId: number, platform: string, taskId: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('platform', '=', platform).where('task_id', '=', taskId).orderBy('id', 'desc').executeTakeFirst();
}

export function findTaskById(db: Db, id: number): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listOwnTasks(db: Db, userId: number, platform: string, taskIds: string[]): Promise<TaskRow[]> {
  if (!taskIds.length) return Promise.resolve([]);
  return db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('platform', '=', platform).where('task_id', 'in', taskIds).orderBy('id').execute();
}

/** Pending tasks of one family; platforms are stored lower-case, so the match is exact on every dialect. */
export function pendingTasks(db: Db, platform: string, limit: number): Promise<TaskRow[]> {
  return db.selectFrom('tasks').selectAll().where('platform', '=', platform.toLowerCase()).where('progress', '<>', 100).orderBy('id').limit(limit).execute();
}

export async function updatePendingTask(db: Db, id: number, set: Updateable<TasksTable>): Promise<boolean> {
  const r = await db.updateTable('tasks').set(set).where('id', '=', id).where('progress', '<>', 100).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** One page of the caller's tasks of a platform, newest first (or oldest with `asc`), after a task id. */
export async function pageOwnTasks(db: Db, userId: number, platform: string, o: { limit: number; afterTaskId?: string; asc: boolean }): Promise<TaskRow[]> {
  let query = db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('platform', '=', platform);
  if (o.afterTaskId) {
    const after = await findOwnTask(db, userId, platform, o.afterTaskId);
    if (after) query = query.where('id', o.asc ? '>' : '<', after.id);
  }
  return query.orderBy('id', o.asc ? 'asc' : 'desc').limit(o.limit).execute();
}
