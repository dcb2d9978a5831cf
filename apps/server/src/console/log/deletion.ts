import { LOG_TYPE, type LogDeletion } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../common/time.js';
import { apiError } from '../../common/errors.js';
import {
  createLogDeletion, currentLogDeletion, finishLogDeletion, logDeletionById, runningLogDeletions, type LogDeletionRow,
} from '../../db/repos/log-deletions.js';
import { DeletionStopped, runLogDeletionJob } from './housekeeping.js';

/** The deletion this node runs (one at a time), with the promise of its total. */
const active = new WeakMap<AppContext, { id: number; done: Promise<number> }>();
/** Set between the check and the insert of a new job, so two quick clicks start one. */
const starting = new WeakSet<AppContext>();

export function toLogDeletion(r: LogDeletionRow): LogDeletion {
  return {
    id: r.id,
    target_timestamp: r.target_timestamp,
    type: r.type,
    deleted: r.deleted,
    status: r.status as LogDeletion['status'],
    done: r.status !== 'running',
    error: r.error,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

/** Runs a job row to its end on this node: marks it done (or failed) and answers its total from the row. */
function run(ctx: AppContext, row: LogDeletionRow): Promise<number> {
  const done = runLogDeletionJob(ctx, row).then(
    async () => {
      await finishLogDeletion(ctx.db, row.id, 'done', '', nowSeconds());
      return (await logDeletionById(ctx.db, row.id))!.deleted;
    },
    async (error: unknown) => {
      // A close mid-run leaves the job running in the table: the next start resumes it.
      if (!(error instanceof DeletionStopped)) {
        ctx.log.error({ err: error, deletion: row.id }, 'log deletion failed');
        await finishLogDeletion(ctx.db, row.id, 'failed', String((error as Error)?.message ?? error), nowSeconds()).catch(() => undefined);
      }
      throw error;
    },
  );
  const entry = { id: row.id, done };
  active.set(ctx, entry);
  const clear = () => active.get(ctx) === entry && active.delete(ctx);
  done.then(clear, clear);
  return done;
}

/**
 * `DELETE /api/log/`: log rows of the type (consumption by default, 0 = all) older than the
 * timestamp go as a durable job (log_deletions): the id range is fixed at the start, walked in
 * batches whose progress commits with them. One deletion at a time across the nodes: while one
 * runs, another start is refused with its id. Answers the job record and its promise (the total).
 */
export async function startLogDeletion(ctx: AppContext, targetTimestamp: number, type: number = LOG_TYPE.consume): Promise<{ job: LogDeletion; done: Promise<number> }> {
  if (starting.has(ctx)) throw apiError(409, 'log_deletion_starting');
  starting.add(ctx);
  try {
    const running = active.get(ctx)?.id ?? (await runningLogDeletions(ctx.db))[0]?.id;
    if (running) throw apiError(409, 'log_deletion_running', { id: running });
    const row = await createLogDeletion(ctx.db, ctx.readDb, targetTimestamp, type, nowSeconds());
    const done = run(ctx, row);
    return { job: toLogDeletion(row), done };
  } finally {
    starting.delete(ctx);
  }
}

/**
 * On the node that runs jobs: the deletions a restart interrupted (still `running` in the table)
 * go on from their last committed batch, one after the other, in the background.
 */
export function resumeLogDeletions(ctx: AppContext): Promise<void> {
  const work = (async () => {
    for (const row of await runningLogDeletions(ctx.db)) {
      ctx.log.info({ deletion: row.id, deleted: row.deleted, last_id: row.last_id, max_id: row.max_id }, 'resuming log deletion');
      try {
        await run(ctx, row);
      } catch (error) {
        if (error instanceof DeletionStopped) return;
      }
    }
  })();
  return work.catch((error: unknown) => ctx.log.error({ err: error }, 'resuming log deletions failed'));
}

export async function logDeletion(ctx: AppContext, id: number): Promise<LogDeletion> {
  const row = await logDeletionById(ctx.db, id);
  if (!row) throw apiError(404, 'log_deletion_not_found');
  return toLogDeletion(row);
}

/** The running deletion, else the last one; null when there never was one (the console reads it after a reload). */
export async function currentDeletion(ctx: AppContext): Promise<LogDeletion | null> {
  const row = await currentLogDeletion(ctx.db);
  return row ? toLogDeletion(row) : null;
}

/** The deletion this node runs, if any (retention waits for the next day rather than run beside it). */
export const runningHere = (ctx: AppContext) => active.get(ctx)?.id;
