import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DELETE_WORKER_SOURCE, rangeDeleteSql } from './worker-source.js';
import { WRITERS_WAITING } from '../sqlite-dialect.js';

export interface OffThreadDeletion {
  /** The log_deletions row the worker moves on with each batch. */
  job: number;
  /** Rows before this time (epoch seconds) go, of one log type when not 0. */
  before: number;
  type: number;
  /** The walk: ids after `lastId` up to and including `maxId`. */
  lastId: number;
  maxId: number;
}

/** Batch sizing of the worker (see worker-source.ts). */
export interface DeletePacing {
  /** A batch or vacuum step should take at most this long (ms): the relay's writes wait that long at worst. */
  targetMs: number;
  /** Rest after each batch, as a multiple of its duration. */
  restFactor: number;
  /** Id spans per batch (a span holds at most that many rows). */
  firstBatch: number;
  minBatch: number;
  maxBatch: number;
  vacuumPages: number;
  /** Page cache of the worker's connection (KB): each batch touches every log index at the front of each of its keys' sections. */
  cacheKb: number;
  /** The worker checkpoints the log (PASSIVE) this often between batches (ms). */
  checkpointMs: number;
  /** Longest a batch is held off for the relay thread's writes waiting on the lock (ms). */
  yieldMs: number;
}

export const DELETE_PACING: DeletePacing = { targetMs: 20, restFactor: 1, firstBatch: 500, minBatch: 50, maxBatch: 20_000, vacuumPages: 256, cacheKb: 262_144, checkpointMs: 250, yieldMs: 100 };

/**
 * Deletes log rows of a SQLite file in a worker thread with its own connection, so none of the
 * deleting, the freeing of pages nor the checkpoint runs on the relay's thread; `progress` hears
 * this run's running count (the job row holds the total). `stop` ends the worker (a batch is one statement: it either happened or not).
 */
export function deleteLogsOffThread(
  path: string,
  job: OffThreadDeletion,
  progress?: (deleted: number) => void,
): { done: Promise<number>; stop: () => Promise<void> } {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(DELETE_WORKER_SOURCE, { eval: true, workerData: { path, module, ...job, deleteSql: rangeDeleteSql(job.type), writersWaiting: WRITERS_WAITING.buffer, ...DELETE_PACING } });
  const done = new Promise<number>((resolve, reject) => {
    let finished = false;
    worker.on('message', (m: { deleted: number; done?: boolean }) => {
      progress?.(m.deleted);
      if (m.done) {
        finished = true;
        resolve(m.deleted);
      }
    });
    worker.on('error', reject);
    worker.on('exit', () => finished || reject(new Error('the log deletion stopped before it finished')));
  });
  return { done, stop: async () => void (await worker.terminate()) };
}
