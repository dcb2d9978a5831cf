/**
 * The code of a read worker, run with `new Worker(WORKER_SOURCE, { eval: true })` so it needs no
 * file of its own next to the bundle. It opens the SQLite file read-only and answers compiled
 * queries one at a time: `{ id, sql, parameters }` → `{ id, rows }` or `{ id, error }`.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', (m) => {
  try {
    let stmt = statements.get(m.sql);
    if (!stmt) {
      stmt = db.prepare(m.sql);
      if (statements.size > 200) statements.clear();
      statements.set(m.sql, stmt);
    }
    if (stmt.reader) parentPort.postMessage({ id: m.id, rows: stmt.all(m.parameters) });
    else parentPort.postMessage({ id: m.id, error: { message: 'read workers only read: ' + m.sql.slice(0, 60), code: 'READ_ONLY' } });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: { message: String(e && e.message), code: e && e.code } });
  }
});
`;
