import type { Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { MidjourneysTable, TasksTable } from '../schema.js';

export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;

export interface MidjourneyFilter {
  channel_id?: number;
  user_id?: number;
  status?: string;
  mj_id?: string;
  token_id?: number;
  /** Milliseconds, on submit_time. */
  start_timestamp?: number;
  end_timestamp?: number;
}

/** Midjourney tasks; `userId` limits the list to one user's own rows. */
export function midjourneyListQuery(db: Db, f: MidjourneyFilter, userId?: number) {
  let query = db.selectFrom('midjourneys').selectAll();
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  else {
    if (f.channel_id) query = query.where('channel_id', '=', f.channel_id);
    if (f.user_id) query = query.where('user_id', '=', f.user_id);
  }
  if (f.status) query = query.where('status', '=', f.status);
  if (f.mj_id) query = query.where('mj_id', '=', f.mj_id);
  if (f.token_id) query = query.where('token_id', '=', f.token_id);
  if (f.start_timestamp) query = query.where('submit_time', '>=', f.start_timestamp);
  if (f.end_timestamp) query = query.where('submit_time', '<=', f.end_timestamp);
  return query;
}

export const MIDJOURNEY_ORDER_COLUMNS = ['id', 'user_id', 'code', 'action', 'mj_id', 'submit_time', 'start_time', 'finish_time', 'status', 'channel_id'] as const;

export interface TaskFilter {
  platform?: string;
  channel_id?: number;
  task_id?: string;
  user_id?: number;
  user_ids?: number[];
  action?: string;
  status?: string;
  token_id?: number;
  /** Seconds, on submit_time. */
  start_timestamp?: number;
  end_timestamp?: number;
}

/** Async tasks; `userId` limits the list to one user's own rows and ignores the admin filters. */
export function taskListQuery(db: Db, f: TaskFilter, userId?: number) {
  let query = db.selectFrom('tasks').selectAll();
  if (userId !== undefined) {
    query = query.where('user_id', '=', userId);
  } else {
    if (f.channel_id) query = query.where('channel_id', '=', f.channel_id);
    if (f.user_id) query = query.where('user_id', '=', f.user_id);
    if (f.user_ids?.length) query = query.where('user_id', 'in', f.user_ids);
  }
  if (f.platform) query = query.where('platform', '=', f.platform);
  if (f.task_id) query = query.where('task_id', '=', f.task_id);
  if (f.action) query = query.where('action', '=', f.action);
  if (f.status) query = query.where('status', '=', f.status);
  if (f.token_id) query = query.where('token_id', '=', f.token_id);
  if (f.start_timestamp) query = query.where('submit_time', '>=', f.start_timestamp);
  if (f.end_timestamp) query = query.where('submit_time', '<=', f.end_timestamp);
  return query;
}

// task_id and status beyond the original's list, so every sortable column of the screen sorts.
export const TASK_ORDER_COLUMNS = ['id', 'created_at', 'task_id', 'submit_time', 'finish_time', 'channel_id', 'user_id', 'platform', 'status'] as const;
