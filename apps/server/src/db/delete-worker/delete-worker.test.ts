import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, sqliteHandle, type DbHandle } from '../index.js';
import { deleteLogsOffThread } from './index.js';

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

  const left = async () => (await handle.db.selectFrom('logs').select(['created_at', 'type']).orderBy('created_at').execute()).map((r) => [Number(r.created_at), Number(r.type)]);

  it('deletes the rows of the type before the time on its own connection, reports growing progress, and gives the pages back', async () => {
    const seen: number[] = [];
    const run = deleteLogsOffThread(sqliteHandle(handle.db)!.name, { before: 5001, type: 2 }, (n) => seen.push(n));
    expect(await run.done).toBe(2500);
    expect(seen.at(-1)).toBe(2500);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const rows = await left();
    expect(rows.filter(([at, type]) => type === 2 && at < 5001)).toEqual([]);
    expect(rows.filter(([, type]) => type === 5)).toHaveLength(3000);
    expect(rows.filter(([at, type]) => type === 2 && at >= 5001)).toHaveLength(500);
    expect(Number(sqliteHandle(handle.db)!.pragma('freelist_count', { simple: true }))).toBe(0);
  });

  it('deletes every type when none is given, and nothing when nothing is that old', async () => {
    expect(await deleteLogsOffThread(sqliteHandle(handle.db)!.name, { before: 1 }).done).toBe(0);
    expect(await deleteLogsOffThread(sqliteHandle(handle.db)!.name, { before: 101 }).done).toBe(100);
    expect((await left())[0]).toEqual([101, 2]);
  });

  it('fails its promise when stopped before the end', async () => {
    const run = deleteLogsOffThread(sqliteHandle(handle.db)!.name, { before: 6001 });
    await run.stop();
    await expect(run.done).rejects.toThrow('stopped before it finished');
  });
});
