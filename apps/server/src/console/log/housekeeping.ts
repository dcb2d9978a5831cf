import { setImmediate as yieldToRelay, setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../app-context.js';
import { sqliteHandle } from '../../db/index.js';
import { deleteLogRange, type LogDeletionRow } from '../../db/repos/log-deletions.js';
import { deleteLogsOffThread } from '../../db/delete-worker/index.js';

/**
 * Ids per batch where the deletion runs on this thread's connection: PostgreSQL and MySQL delete
 * on their own server, where bigger batches only shorten the whole run; an in-memory SQLite
 * database (no file a worker could open) deletes 250 ids at a time between relay requests.
 */
export const LOCAL_DELETE_SPAN = { sqlite: 250, server: 5000 };
export const deleteBatch = (ctx: AppContext) => (ctx.dialect === 'sqlite' ? LOCAL_DELETE_SPAN.sqlite : LOCAL_DELETE_SPAN.server);

/** Thrown when the server closes mid-deletion: the job stays `running` and the next start resumes it. */
export class DeletionStopped extends Error {
  constructor() {
    super('the log deletion stopped before it finished');
  }
}

/**
 * Walks a durable deletion job's id range from its `last_id` to its `max_id` by primary key, each
 * batch's rows and the job's progress committed together (repos/log-deletions.ts). A SQLite file is
 * worked on by a worker thread with its own connection (delete-worker: time-boxed batches with
 * rests, then the freed pages handed back), so the relay's thread does none of it; elsewhere
 * batches yield to the relay between them. `progress` hears this run's count; answers it.
 */
export async function runLogDeletionJob(ctx: AppContext, job: LogDeletionRow, progress?: (deleted: number) => void, batch = deleteBatch(ctx)): Promise<number> {
  const raw = sqliteHandle(ctx.db);
  if (raw && !raw.memory) {
    // The worker checkpoints the log itself, off this thread: a commit of the relay's (a log flush)
    // that found the log past SQLite's 1 000 pages would otherwise copy the job's pages itself.
    const autocheckpoint = Number(raw.pragma('wal_autocheckpoint', { simple: true }));
    raw.pragma('wal_autocheckpoint = 0');
    const run = deleteLogsOffThread(raw.name, { job: job.id, before: job.target_timestamp, type: job.type, lastId: job.last_id, maxId: job.max_id }, progress);
    try {
      return await untilClose(ctx, run.stop, () => run.done);
    } finally {
      if (raw.open) raw.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    }
  }
  let current: Promise<unknown> = Promise.resolve();
  return untilClose(
    ctx,
    () => current.then(noop, noop),
    async (stopped) => {
      let deleted = 0;
      let last = job.last_id;
      while (last < job.max_id) {
        if (stopped()) throw new DeletionStopped();
        const to = Math.min(job.max_id, last + batch);
        const t0 = performance.now();
        const step = deleteLogRange(ctx.db, job, last, to);
        current = step;
        const n = await step;
        if (n === null) throw new Error(`the log deletion ${job.id} is run by another node or was ended`);
        deleted += n;
        last = to;
        progress?.(deleted);
        // In-memory SQLite deletes on the relay's thread: rest as long as the batch took (it has no file to shrink).
        if (raw) await sleep(Math.max(1, performance.now() - t0));
        else await yieldToRelay();
      }
      return deleted;
    },
  );
}

const noop = () => undefined;

/**
 * Runs `work` with `halt` called when the server closes meanwhile; whatever the work then throws
 * becomes DeletionStopped (the job stays `running` for the next start).
 */
async function untilClose<T>(ctx: AppContext, halt: () => Promise<unknown>, work: (stopped: () => boolean) => Promise<T>): Promise<T> {
  let stopped = false;
  const stop = async () => {
    stopped = true;
    await halt();
  };
  ctx.onClose.push(stop);
  try {
    return await work(() => stopped);
  } catch (error) {
    throw stopped ? new DeletionStopped() : error;
  } finally {
    // Not while the server closes: its loop walks this list.
    if (!stopped) ctx.onClose.splice(ctx.onClose.indexOf(stop), 1);
  }
}
