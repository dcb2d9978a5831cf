/**
 * The code of a log-deletion worker (run with `new Worker(SOURCE, { eval: true })`, so it needs no
 * file next to the bundle). It opens the SQLite file for writing and, alone on its thread, walks a
 * durable deletion job's id range (log_deletions.last_id → max_id) in batches by primary key: each
 * batch deletes the matching rows of one id span and moves the job's `last_id` and count in the
 * same transaction, so a restart resumes exactly where the last committed batch ended. Then it
 * hands the freed pages back and checkpoints.
 *
 * SQLite has one writer at a time: while a batch runs, a write of the relay's thread (the log
 * flush, a quota slice) waits on busy_timeout. So every batch is time-boxed (its span halves when
 * one took longer than `targetMs` and doubles when it took under half of it) and is followed by a
 * rest `restFactor` times as long, which keeps the write lock free for the relay between batches.
 * Posts `{ deleted, lastId }` after each batch (this run's count) and `{ deleted, done }` last;
 * a job another runner moved on (its last_id is not where this one left it) ends it with an error.
 */
/**
 * One batch's statement: the rows of an id span. The unary `+` keeps SQLite's planner off the
 * (type, created_at, id) and (created_at, id) indexes: with them it picks `type = ? AND created_at
 * < ?` over the rowid range and reads every matching row left in the whole job, not the span's,
 * on each batch — the walk turns quadratic, each batch halves to the minimum and a 120 000-row
 * deletion took minutes while the relay kept adding rows (the file then grew instead of shrinking).
 */
export const rangeDeleteSql = (type: number): string =>
  `DELETE FROM logs WHERE id > ? AND id <= ? AND +created_at < ?${type ? ` AND +type = ${Math.trunc(type)}` : ''}`;

export const DELETE_WORKER_SOURCE = `
const { parentPort, workerData: w } = require('node:worker_threads');
const Database = require(w.module);
const db = new Database(w.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = ' + -w.cacheKb);
// The checkpoints are this worker's (see checkpoint below), outside the timed batches: SQLite's own
// would run inside a batch's commit, and the relay's connection leaves them off while a job runs.
db.pragma('wal_autocheckpoint = 0');
const pause = new Int32Array(new SharedArrayBuffer(4));
const del = db.prepare(w.deleteSql);
const move = db.prepare("UPDATE log_deletions SET last_id = ?, deleted = deleted + ? WHERE id = ? AND last_id = ? AND status = 'running'");
const step = db.transaction((from, to) => {
  const n = del.run(from, to, w.before).changes;
  if (move.run(to, n, w.job, from).changes !== 1) throw new Error('the log deletion ' + w.job + ' is run by another node or was ended');
  return n;
});
let lastCheckpoint = performance.now();
/**
 * Copies the log's pages into the file without taking the write lock (PASSIVE: the relay's writes
 * go on meanwhile), every checkpointMs of batches: a page the batches change again and again (the
 * front of each index key's section) is copied once per checkpoint, not once per batch. A relay
 * write landing during the copy leaves frames behind, so a pass that did not copy everything is
 * followed at once by up to three more, each copying only what came during the one before.
 *
 * Measured with a writer on another connection: after PASSIVE checkpoints alone the log never
 * started over from its beginning (2.2 GB after 10 s, 7.5 GB in a bench run), though each one
 * copied all of it. So once one has, a RESTART that does not wait (busy_timeout 0; it has nothing
 * left to copy) resets the log; a reader or writer in the way makes it give up until the next time.
 */
function checkpoint() {
  if (performance.now() - lastCheckpoint < w.checkpointMs) return;
  for (let pass = 0; pass < 4; pass++) {
    const [c] = db.pragma('wal_checkpoint(PASSIVE)');
    if (c.busy !== 0) break;
    if (c.log === c.checkpointed) {
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(RESTART)');
      } catch (e) {
        if (!String(e && e.code).startsWith('SQLITE_BUSY')) throw e;
      } finally {
        db.pragma('busy_timeout = 5000');
      }
      break;
    }
  }
  lastCheckpoint = performance.now();
}
const writers = new Int32Array(w.writersWaiting);
/** Holds off the next batch (for up to yieldMs) while a write of the relay's thread waits for the lock (sqlite-dialect.ts WRITERS_WAITING). */
function letWritersIn() {
  const until = performance.now() + w.yieldMs;
  for (let v = Atomics.load(writers, 0); v > 0 && performance.now() < until; v = Atomics.load(writers, 0)) Atomics.wait(writers, 0, v, 2);
}
let span = w.firstBatch;
let last = w.lastId;
let deleted = 0;
while (last < w.maxId) {
  letWritersIn();
  const to = Math.min(w.maxId, last + span);
  const t0 = performance.now();
  const n = step(last, to);
  const ms = performance.now() - t0;
  deleted += n;
  last = to;
  parentPort.postMessage({ deleted, lastId: last });
  if (ms > w.targetMs) span = Math.max(w.minBatch, Math.floor(span / 2));
  else if (ms < w.targetMs / 2) span = Math.min(w.maxBatch, span * 2);
  Atomics.wait(pause, 0, 0, Math.max(1, ms * w.restFactor));
  checkpoint();
}
if (deleted) {
  let pages = w.vacuumPages;
  for (;;) {
    letWritersIn();
    const t0 = performance.now();
    db.pragma('incremental_vacuum(' + pages + ')');
    const ms = performance.now() - t0;
    if (Number(db.pragma('freelist_count', { simple: true })) === 0) break;
    if (ms > w.targetMs) pages = Math.max(16, Math.floor(pages / 2));
    else if (ms < w.targetMs / 2) pages = Math.min(8192, pages * 2);
    Atomics.wait(pause, 0, 0, Math.max(1, ms * w.restFactor));
    checkpoint();
  }
  // The file is cut to its new size only by a checkpoint that copies the whole log, which a reader
  // still on an older snapshot (a read worker's long query) prevents: try again for up to a second.
  for (let tries = 0; tries < 50; tries++) {
    const [c] = db.pragma('wal_checkpoint(PASSIVE)');
    if (c.busy === 0 && c.log === c.checkpointed) break;
    Atomics.wait(pause, 0, 0, 20);
  }
}
db.close();
parentPort.postMessage({ deleted, done: true });
`;
