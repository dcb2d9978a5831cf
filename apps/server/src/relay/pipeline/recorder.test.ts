import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, type DbHandle } from '../../db/index.js';
import type { AppContext } from '../../app-context.js';
import type { NewLog } from '../../db/repos/logs.js';
import { LOG_BATCH_ROWS, Recorder } from './recorder.js';

const row = (i: number): NewLog => ({ type: 2, created_at: 1_790_000_000, user_id: 1, model_name: 'm', quota: i, request_id: `r${i}` });

describe('Recorder', () => {
  let handle: DbHandle;
  let recorder: Recorder;
  const count = async () => Number((await handle.db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeEach(async () => {
    handle = await openDb({ sqlitePath: ':memory:' });
    await migrate(handle.db);
    // An hour-long interval: only a full batch can explain a write.
    const ctx = { config: { BATCH_FLUSH_MS: 3_600_000 }, db: handle.db, log: { error: () => undefined } } as unknown as AppContext;
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
});
