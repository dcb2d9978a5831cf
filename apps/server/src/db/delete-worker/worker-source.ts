/**
 * The code of a log-deletion worker (run with `new Worker(SOURCE, { eval: true })`, so it needs no
 * file next to the bundle). It opens the SQLite file for writing and, alone on its thread, deletes
 * the oldest matching log rows in batches, then hands the freed pages back and checkpoints.
 *
 * SQLite has one writer at a time: while a batch runs, a write of the relay's thread (the log
 * flush, a quota slice) waits on busy_timeout. So every batch is time-boxed (its size halves when
 * one took longer than `targetMs` and doubles when it took under half of it) and is followed by a
 * rest `restFactor` times as long, which keeps the write lock free at least half of the time and the
 * worker to at most half a core. Posts `{ deleted }` after each batch and `{ deleted, done }` last.
 */
export const DELETE_WORKER_SOURCE = `
const { parentPort, workerData: w } = require('node:worker_threads');
const Database = require(w.module);
const db = new Database(w.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -32768');
const pause = new Int32Array(new SharedArrayBuffer(4));
const typed = w.type === null ? '' : ' AND type = ' + Number(w.type);
const del = db.prepare('DELETE FROM logs WHERE id IN (SELECT id FROM logs WHERE created_at < ?' + typed + ' ORDER BY created_at LIMIT ?)');
let batch = w.firstBatch;
let deleted = 0;
for (;;) {
  const t0 = performance.now();
  const n = del.run(w.before, batch).changes;
  const ms = performance.now() - t0;
  deleted += n;
  parentPort.postMessage({ deleted });
  if (n < batch) break;
  if (ms > w.targetMs) batch = Math.max(w.minBatch, Math.floor(batch / 2));
  else if (ms < w.targetMs / 2) batch = Math.min(w.maxBatch, batch * 2);
  Atomics.wait(pause, 0, 0, Math.max(1, ms * w.restFactor));
}
if (deleted) {
  let pages = w.vacuumPages;
  for (;;) {
    const t0 = performance.now();
    db.pragma('incremental_vacuum(' + pages + ')');
    const ms = performance.now() - t0;
    if (Number(db.pragma('freelist_count', { simple: true })) === 0) break;
    if (ms > w.targetMs) pages = Math.max(16, Math.floor(pages / 2));
    else if (ms < w.targetMs / 2) pages = Math.min(8192, pages * 2);
    Atomics.wait(pause, 0, 0, Math.max(1, ms * w.restFactor));
  }
  db.pragma('wal_checkpoint(PASSIVE)');
}
db.close();
parentPort.postMessage({ deleted, done: true });
`;
