import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, sqliteHandle, type DbHandle } from '../index.js';
import { deleteLogsOffThread } from './index.js';
import { rangeDeleteSql } from './worker-source.js';
import { createLogDeletion, logDeletionById, logRangeDelete } from '../repos/log-deletions.js';

const row = (created_at: number, type: number) => ({ user_id: 1, created_at, type, content: 'x'.repeat(200), username: 'u', token_name: 't', model_name: 'm', quota: 1, prompt_tokens: 0, completion_tokens: 0, channel_id: 0, request_time: 0, is_stream: 0 });

describe('the log deletion worker', () => {
  let dir: string;
  let handle: DbHandle;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'delete-worker-'));
    handle = await openDb({ sqlitePath: join(dir, 'd.db') });
    await migrate(handle.db);
    // Rows at times 1…6 000: types 2 and 5 alternating.
    const rows = Array.from({ length: 6000 }, (_, i) => row(i + 1, i % 2 ? 5 : 2));
    for (let i = 0; i < rows.length; i += 500) await handle.db.insertInto('logs').values(rows.slice(i, i + 500)).execute();
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A job row over the matching id range, as the console's start makes it. */
  const job = async (before: number, type = 0) => {
    const row = await createLogDeletion(handle.db, handle.db, before, type, 1);
    return { job: row.id, before, type, lastId: row.last_id, maxId: row.max_id };
  };
  const left = async () => (await handle.db.selectFrom('logs').select(['created_at', 'type']).orderBy('created_at').execute()).map((r) => [Number(r.created_at), Number(r.type)]);

  it('deletes the rows of the type before the time on its own connection, reports growing progress, and gives the pages back', async () => {
    const seen: number[] = [];
    const run = deleteLogsOffThread(sqliteHandle(handle.db)!.name, await job(5001, 2), (n) => seen.push(n));
    expect(await run.done).toBe(2500);
    expect(seen.at(-1)).toBe(2500);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // The job row moved with every batch: its count is the total and its walk reached the end.
    expect(await logDeletionById(handle.db, 1)).toMatchObject({ deleted: 2500, last_id: 4999, max_id: 4999 });
    const rows = await left();
    expect(rows.filter(([at, type]) => type === 2 && at < 5001)).toEqual([]);
    expect(rows.filter(([, type]) => type === 5)).toHaveLength(3000);
    expect(rows.filter(([at, type]) => type === 2 && at >= 5001)).toHaveLength(500);
    expect(Number(sqliteHandle(handle.db)!.pragma('freelist_count', { simple: true }))).toBe(0);
  });

  it('shrinks the file itself: the checkpoint after the vacuum steps cuts it', async () => {
    const raw = sqliteHandle(handle.db)!;
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const size = statSync(raw.name).size;
    expect(await deleteLogsOffThread(raw.name, await job(5001)).done).toBe(5000);
    expect(statSync(raw.name).size).toBeLessThan(size * 0.5);
  });

  it('reads each batch by its id span, not through the type/time index over the whole job', async () => {
    // The planner prefers `type = ? AND created_at < ?` on idx_logs_type_time when allowed: every
    // batch then reads all matching rows left in the job, however short its span.
    const raw = sqliteHandle(handle.db)!;
    const plan = (text: string, params: readonly unknown[]) => raw.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params).map((r) => (r as { detail: string }).detail).join(' | ');
    for (const type of [2, 0]) expect(plan(rangeDeleteSql(type), [0, 500, 5001])).toMatch(/^SEARCH logs USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/);
    // The same statement where the deletion runs on the relay's connection (an in-memory database).
    const local = logRangeDelete(handle.db, { id: 1, target_timestamp: 5001, type: 2 }, 0, 500).compile();
    expect(plan(local.sql, local.parameters)).toMatch(/^SEARCH logs USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/);
  });

  it('deletes every type when none is given, and nothing when nothing is that old', async () => {
    expect(await deleteLogsOffThread(sqliteHandle(handle.db)!.name, await job(1)).done).toBe(0);
    expect(await deleteLogsOffThread(sqliteHandle(handle.db)!.name, await job(101)).done).toBe(100);
    expect((await left())[0]).toEqual([101, 2]);
  });

  it('resumes from the last committed batch with an exact total, and stops when another runner moved the job on', async () => {
    const first = await job(6001);
    // As if a batch had committed before a restart: ids 1…1 000 gone and counted.
    await handle.db.deleteFrom('logs').where('id', '<=', 1000).execute();
    await handle.db.updateTable('log_deletions').set({ last_id: 1000, deleted: 1000 }).where('id', '=', first.job).execute();
    expect(await deleteLogsOffThread(sqliteHandle(handle.db)!.name, { ...first, lastId: 1000 }).done).toBe(5000);
    expect(await logDeletionById(handle.db, first.job)).toMatchObject({ deleted: 6000, last_id: 6000 });
    expect(await left()).toEqual([]);
    // A runner that thinks the walk is still at 1 000 deletes nothing and fails.
    await expect(deleteLogsOffThread(sqliteHandle(handle.db)!.name, { ...first, lastId: 1000 }).done).rejects.toThrow('another node');
  });

  it('fails its promise when stopped before the end', async () => {
    const run = deleteLogsOffThread(sqliteHandle(handle.db)!.name, await job(6001));
    await run.stop();
    await expect(run.done).rejects.toThrow('stopped before it finished');
  });
});
