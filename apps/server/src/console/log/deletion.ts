import { LOG_TYPE, type LogDeletion } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../common/time.js';
import { apiError } from '../../common/errors.js';
import { deleteLogsInBatches } from './housekeeping.js';

/** The last deletions of this node, newest last (progress is kept in memory; a restart forgets it). */
const KEPT = 20;
const deletions = new WeakMap<AppContext, LogDeletion[]>();
let seq = 0;

/**
 * `DELETE /api/log/`: consumption rows older than the timestamp go in batches that yield to
 * the relay. Answers the progress record at once and the deletion's promise (the count).
 */
export function startLogDeletion(ctx: AppContext, targetTimestamp: number): { job: LogDeletion; done: Promise<number> } {
  const job: LogDeletion = { id: ++seq, target_timestamp: targetTimestamp, deleted: 0, done: false, error: '', started_at: nowSeconds(), finished_at: 0 };
  const list = deletions.get(ctx) ?? [];
  list.push(job);
  if (list.length > KEPT) list.shift();
  deletions.set(ctx, list);
  const done = deleteLogsInBatches(ctx, targetTimestamp, LOG_TYPE.consume, (n) => (job.deleted = n)).then(
    (n) => {
      job.done = true;
      job.finished_at = nowSeconds();
      return n;
    },
    (error: unknown) => {
      job.done = true;
      job.error = String((error as Error)?.message ?? error);
      job.finished_at = nowSeconds();
      ctx.log.error({ err: error, deletion: job.id }, 'log deletion failed');
      throw error;
    },
  );
  return { job, done };
}

export function logDeletion(ctx: AppContext, id: number): LogDeletion {
  const job = deletions.get(ctx)?.find((d) => d.id === id);
  if (!job) throw apiError(404, 'log_deletion_not_found', undefined, { message: 'no such log deletion on this node' });
  return { ...job };
}
