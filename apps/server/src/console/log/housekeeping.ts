import { setImmediate as yieldToRelay, setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../app-context.js';
import { sqliteHandle } from '../../db/index.js';
import { deleteLogsByIds, logIdsBefore } from '../../db/repos/log-retention.js';
import { deleteLogsOffThread } from '../../db/delete-worker/index.js';

/**
 * Rows per deletion statement where the deletion runs on this thread's connection: PostgreSQL and
 * MySQL delete on their own server, where bigger batches only shorten the whole run; an in-memory
 * SQLite database (no file a worker could open) deletes 250 at a time between relay requests.
 */
export const deleteBatch = (ctx: AppContext) => (ctx.dialect === 'sqlite' ? 250 : 5000);

/**
 * Deletes log rows written before `before` (of one type when given) in batches; `progress` hears
 * the running total after each batch. A SQLite file is worked on by a worker thread with its own
 * connection (delete-worker: time-boxed batches with rests, then the freed pages handed back), so
 * the relay's thread does none of it; elsewhere batches yield to the relay between them.
 * Answers the number deleted.
 */
export async function deleteLogsInBatches(ctx: AppContext, before: number, type: number | undefined, progress?: (deleted: number) => void, batch = deleteBatch(ctx)): Promise<number> {
  const raw = sqliteHandle(ctx.db);
  if (raw && !raw.memory) {
    const run = deleteLogsOffThread(raw.name, { before, type }, progress);
    ctx.onClose.push(run.stop);
    try {
      return await run.done;
    } finally {
      ctx.onClose.splice(ctx.onClose.indexOf(run.stop), 1);
    }
  }
  let deleted = 0;
  for (;;) {
    const ids = await logIdsBefore(ctx.readDb, before, batch, type);
    const t0 = performance.now();
    if (ids.length) deleted += await deleteLogsByIds(ctx.db, ids);
    progress?.(deleted);
    if (ids.length < batch) break;
    // In-memory SQLite deletes on the relay's thread: rest as long as the batch took (it has no file to shrink).
    if (raw) await sleep(Math.max(1, performance.now() - t0));
    else await yieldToRelay();
  }
  return deleted;
}
