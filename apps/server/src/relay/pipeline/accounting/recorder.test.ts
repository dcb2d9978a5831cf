import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, type DbHandle } from '../../../db/index.js';
import type { AppContext } from '../../../app-context.js';
import type { NewLog } from '../../../db/repos/logs.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { FLUSH_DEFER_MAX_MS, FLUSH_RETRY_MS, LOG_BATCH_ROWS, Recorder } from './recorder.js';
import { LOG_COLUMNS, LOG_DEFAULTS, logValues } from '../../../db/repos/log-writes-sqlite.js';

const row = (i: number): NewLog => ({ type: 2, created_at: 1_790_000_000, user_id: 1, model_name: 'm', quota: i, request_id: `r${i}` });

describe('Recorder', () => {
  let handle: DbHandle;
  let recorder: Recorder;
  const count = async () => Number((await handle.db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeEach(async () => {
    handle = await openDb({ sqlitePath: ':memory:' });
    await migrate(handle.db);
    // An hour-long interval: only a full batch can explain a write.
    const ctx = { config: { BATCH_FLUSH_MS: 3_600_000 }, db: handle.db, log: { error: () => undefined, warn: () => undefined } } as unknown as AppContext;
    recorder = new Recorder(ctx);
  });
  afterEach(async () => {
    await recorder.close();
    await handle.close();
  });

  it('keeps a partial batch until the interval or shutdown', async () => {
    for (let i = 0; i < LOG_BATCH_ROWS - 1; i++) recorder.log(row(i));
    await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBe(0);
    await recorder.close();
    expect(await count()).toBe(LOG_BATCH_ROWS - 1);
  });

  it('waits at shutdown for a charge still waiting on the database before the last flush', async () => {
    let answer!: () => void;
    const charge = new Promise<void>((resolve) => (answer = resolve)).then(() => recorder.log(row(1)));
    recorder.awaitBeforeClose(charge);
    const closed = recorder.close();
    await new Promise((r) => setTimeout(r, 20));
    answer();
    await closed;
    expect(await count()).toBe(1);
  });

  it('writes a full batch at once, without waiting for the interval', async () => {
    for (let i = 0; i < LOG_BATCH_ROWS + 3; i++) recorder.log(row(i));
    await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBe(LOG_BATCH_ROWS + 3);
  });

  it('gives columns a row leaves out the table defaults', async () => {
    recorder.log({ type: 3, created_at: 1_790_000_000, content: 'top-up' });
    recorder.log(row(7));
    await recorder.flush();
    const rows = await handle.db.selectFrom('logs').selectAll().orderBy('id').execute();
    expect(rows[0]).toMatchObject({ type: 3, content: 'top-up', user_id: 0, username: '', model_name: '', quota: 0, metadata: null });
    expect(rows[1]).toMatchObject({ type: 2, user_id: 1, model_name: 'm', quota: 7, request_id: 'r7', content: null });
  });

  it('stores every column of a row in its own column', async () => {
    // Distinct values per column: a value bound to the wrong position shows up at once.
    const full = Object.fromEntries(
      LOG_COLUMNS.map((c, i) => [c, typeof LOG_DEFAULTS[c] === 'number' ? 1000 + i : `v-${c}`]),
    ) as unknown as NewLog;
    const values: unknown[] = [];
    logValues(full, values);
    expect(values).toEqual(LOG_COLUMNS.map((c) => full[c]));
    recorder.log(full);
    await recorder.flush();
    const stored = await handle.db.selectFrom('logs').selectAll().executeTakeFirstOrThrow();
    for (const c of LOG_COLUMNS) expect(stored[c as keyof typeof stored], c).toEqual(full[c]);
  });

  it('writes the counters, lease spend, log rows and roll-up of a flush', async () => {
    await handle.db.insertInto('users').values({ id: 5, username: 'u5', password: 'x', quota: 700, used_quota: 0, request_count: 0 } as never).execute();
    await handle.db.insertInto('quota_leases').values({ id: 3, node: 'n', owner_kind: 1, owner_id: 5, amount: 300, created_at: 0, expires_at: 9e9 }).execute();
    recorder.settle({ userId: 5, tokenId: 9, unlimited: true, channelId: 0, billed: 120, spend: { user: { kind: 1, ownerId: 5, rowId: 3 } } });
    // Spend held from a lease row that is gone is charged to the balance instead.
    recorder.settle({ userId: 5, tokenId: 9, unlimited: true, channelId: 0, billed: 7, spend: { user: { kind: 1, ownerId: 5, rowId: 99 } } });
    recorder.log({ ...row(120), user_id: 5 });
    await recorder.flush();
    const user = await handle.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', 5).executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 693, used_quota: 127, request_count: 2 });
    const lease = await handle.db.selectFrom('quota_leases').select('amount').where('id', '=', 3).executeTakeFirstOrThrow();
    expect(lease.amount).toBe(180);
    expect(await count()).toBe(1);
    const stats = await handle.db.selectFrom('statistics').select(['user_id', 'quota', 'request_count']).execute();
    expect(stats).toEqual([{ user_id: 5, quota: 120, request_count: 1 }]);
  });

  it('falls back to writing counters and rows separately when the one-transaction flush fails', async () => {
    await handle.db.insertInto('users').values({ id: 6, username: 'u6', password: 'x', quota: 1000, used_quota: 0, request_count: 0 } as never).execute();
    recorder.settle({ userId: 6, tokenId: 9, unlimited: true, channelId: 0, billed: 40 });
    // A value SQLite cannot bind makes the combined transaction roll back (and the rows alone fail again).
    recorder.log({ ...row(40), user_id: 6, content: {} as never });
    await recorder.flush();
    expect(await count()).toBe(0);
    const user = await handle.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', 6).executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 960, used_quota: 40, request_count: 1 });
  });
});

describe('Recorder on a SQLite file another connection is writing to', () => {
  let dir: string;
  let handle: DbHandle;
  let other: BetterSqlite3.Database;
  let recorder: Recorder;
  const count = async () => Number((await handle.db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recorder-busy-'));
    handle = await openDb({ sqlitePath: join(dir, 'r.db') });
    await migrate(handle.db);
    await handle.db.insertInto('users').values({ id: 5, username: 'u5', password: 'x', quota: 1000, used_quota: 0, request_count: 0 } as never).execute();
    // The log deletion's worker, as it holds the write lock during a batch.
    other = new BetterSqlite3(join(dir, 'r.db'));
    const ctx = { config: { BATCH_FLUSH_MS: 3_600_000 }, db: handle.db, log: { error: () => undefined, warn: () => undefined } } as unknown as AppContext;
    recorder = new Recorder(ctx);
  });
  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await recorder.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a batch that finds the file locked, without waiting for the lock, and writes it (with what came meanwhile) once the lock is free', async () => {
    other.exec('BEGIN IMMEDIATE');
    recorder.settle({ userId: 5, tokenId: 9, unlimited: true, channelId: 0, billed: 40 });
    recorder.log({ ...row(40), user_id: 5 });
    const t0 = performance.now();
    await recorder.flush();
    // Not the connection's busy_timeout (5 s): the event loop was not held.
    expect(performance.now() - t0).toBeLessThan(1000);
    other.exec('ROLLBACK');
    recorder.settle({ userId: 5, tokenId: 9, unlimited: true, channelId: 0, billed: 2 });
    recorder.log({ ...row(2), user_id: 5 });
    // The retry comes by itself, FLUSH_RETRY_MS later.
    await new Promise((r) => setTimeout(r, FLUSH_RETRY_MS * 10));
    await recorder.flush();
    expect(await count()).toBe(2);
    const rows = await handle.db.selectFrom('logs').select('quota').orderBy('id').execute();
    expect(rows.map((r) => r.quota)).toEqual([40, 2]);
    const user = await handle.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', 5).executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 958, used_quota: 42, request_count: 2 });
    const stats = await handle.db.selectFrom('statistics').select(['user_id', 'quota', 'request_count']).execute();
    expect(stats).toEqual([{ user_id: 5, quota: 42, request_count: 2 }]);
  });

  /** Another thread holds the write lock for `ms` (this thread's waits on busy_timeout cannot let go of it); resolves once it holds it. */
  const holdElsewhere = (ms: number) =>
    new Promise<Worker>((resolve, reject) => {
      const source = `const { parentPort, workerData: w } = require('node:worker_threads');
        const db = new (require(w.module))(w.path);
        db.exec('BEGIN IMMEDIATE');
        parentPort.postMessage('locked');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, w.ms);
        db.exec('ROLLBACK');
        db.close();`;
      const worker = new Worker(source, { eval: true, workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), path: join(dir, 'r.db'), ms } });
      worker.once('message', () => resolve(worker));
      worker.once('error', reject);
    });

  it('waits for the lock once the batch has been held back FLUSH_DEFER_MAX_MS', async () => {
    const holder = await holdElsewhere(FLUSH_DEFER_MAX_MS + 300);
    const exited = new Promise((r) => holder.once('exit', r));
    recorder.log({ ...row(1), user_id: 5 });
    await recorder.flush();
    expect(await count()).toBe(0);
    await exited;
    expect(await count()).toBe(1);
  });

  it('waits for the lock at shutdown', async () => {
    const holder = await holdElsewhere(300);
    recorder.log({ ...row(1), user_id: 5 });
    await recorder.close();
    expect(await count()).toBe(1);
    await holder.terminate();
  });
});
