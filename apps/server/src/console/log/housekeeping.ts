import { setImmediate as yieldToRelay, setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../app-context.js';
import { deleteLogsByIds, logIdsBefore } from '../../db/repos/log-retention.js';
import { checkpointSqlite, incrementalVacuumStep } from '../../db/sqlite-space.js';

/**
 * Rows per deletion statement. On SQLite the statement runs on the relay's thread: 250 rows with
 * the log indexes take a few milliseconds (measured: 1 000 took up to 160 ms on a loaded
 * two-core machine), and between batches the thread serves requests. PostgreSQL and MySQL
 * delete on their own server, where bigger batches only shorten the whole run.
 */
export const deleteBatch = (ctx: AppContext) => (ctx.dialect === 'sqlite' ? 250 : 5000);
/** Free pages handed back to the file system per step (1 MB with 4 kB pages). */
const VACUUM_PAGES = 256;

/**
 * Deletes log rows written before `before` (of one type when given) in batches, yielding to
 * the relay between them; `progress` hears the running total after each batch. Then, on
 * SQLite, hands the freed pages back to the file system in small steps, so the file shrinks.
 * Answers the number deleted.
 */
export async function deleteLogsInBatches(ctx: AppContext, before: number, type: number | undefined, progress?: (deleted: number) => void, batch = deleteBatch(ctx)): Promise<number> {
  let deleted = 0;
  for (;;) {
    // The ids are read by the read workers on SQLite (off the relay's thread); only the delete runs here.
    const ids = await logIdsBefore(ctx.readDb, before, batch, type);
    const t0 = performance.now();
    if (ids.length) deleted += await deleteLogsByIds(ctx.db, ids);
    progress?.(deleted);
    if (ids.length < batch) break;
    // SQLite deletes on the relay's thread: rest as long as the batch took, so a deletion never
    // takes more than half of that thread (elsewhere the database server does the work).
    if (ctx.dialect === 'sqlite') await sleep(Math.max(1, performance.now() - t0));
    else await yieldToRelay();
  }
  if (deleted) await shrinkSqlite(ctx);
  return deleted;
}

/** SQLite: gives free pages back in steps, yielding between them, then checkpoints the WAL into the file. */
export async function shrinkSqlite(ctx: AppContext): Promise<void> {
  if (ctx.dialect !== 'sqlite') return;
  while (incrementalVacuumStep(ctx.db, VACUUM_PAGES) > 0) await yieldToRelay();
  checkpointSqlite(ctx.db);
}
