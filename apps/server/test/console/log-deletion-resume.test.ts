import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';
import { until } from '../relay/task-fixture.js';
import { DELETE_PACING } from '../../src/db/delete-worker/index.js';
import { LOCAL_DELETE_SPAN } from '../../src/console/log/housekeeping.js';
import { sqliteHandle } from '../../src/db/index.js';

const ROWS = 50_000;
const DAY = 86_400;

// Issue 37.2: a console log deletion is a job whose state is in the database. Closing the server
// after its first batches and starting another on the same database resumes it, and it ends with
// the exact count; progress is readable through the API throughout and after a reload.
describe.each(testDialects())('a log deletion survives a restart on %s', (dialect) => {
  const servers: TestServer[] = [];
  const pacing = { ...DELETE_PACING };
  const span = { ...LOCAL_DELETE_SPAN };
  afterEach(async () => {
    Object.assign(DELETE_PACING, pacing);
    Object.assign(LOCAL_DELETE_SPAN, span);
    const last = servers.pop();
    await servers.pop()?.close();
    await last?.destroy();
  });

  it('answers a job id at once, shows progress, and a restart resumes it to the exact count', async () => {
    // Small spans, so that the deletion is surely mid-way when the first server closes.
    Object.assign(DELETE_PACING, { firstBatch: 200, maxBatch: 200 });
    Object.assign(LOCAL_DELETE_SPAN, { sqlite: 200, server: 200 });
    const first = await startTestServer(dialect);
    servers.push(first);
    const now = Math.floor(Date.now() / 1000);
    // 50 000 rows, one a minute backwards from now: types 2 (consumption) and 5 (errors) alternating.
    const row = (i: number) => ({
      user_id: 1, created_at: now - 60 * i, type: i % 2 ? 5 : 2, content: 'x', username: 'u', token_name: 't', model_name: 'm',
      quota: 1, prompt_tokens: 0, completion_tokens: 0, channel_id: 0, request_time: 0, is_stream: 0,
    });
    for (let i = 0; i < ROWS; i += 1000) await first.ctx.db.insertInto('logs').values(Array.from({ length: 1000 }, (_, k) => row(ROWS - i - k))).execute();
    const target = now - 10 * DAY;
    const count = async (s: TestServer, type: number, older: boolean) =>
      Number((await s.ctx.db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', type).where('created_at', older ? '<' : '>=', target).executeTakeFirstOrThrow()).n);
    const due = await count(first, 2, true);
    const keptConsume = await count(first, 2, false);
    const errors = await count(first, 5, true) + (await count(first, 5, false));
    expect(due).toBeGreaterThan(ROWS / 4);

    const root = new ApiClient(first.app);
    await root.login('root', ROOT_PASSWORD);
    expect((await root.get('/api/log/deletion')).body.data).toBeNull();
    const started = await root.request('DELETE', `/api/log/?target_timestamp=${target}&background=true`);
    expect(started.status).toBe(200);
    const job = started.body.data;
    expect(job).toMatchObject({ target_timestamp: target, type: 2, deleted: 0, status: 'running', done: false, error: '' });
    expect(job.id).toBeGreaterThan(0);
    // One at a time: a second start names the running one.
    const again = await root.request('DELETE', `/api/log/?target_timestamp=${target}&background=true`);
    expect(again.body.success).toBe(false);
    expect(again.body.message).toContain(`${job.id}`);

    // Progress grows through the API; the server closes after the first batches.
    const partway = await until(async () => {
      const p = (await root.get(`/api/log/deletion/${job.id}`)).body.data;
      return p.deleted > 0 && p;
    }, 'the first batches', 30_000);
    expect(partway.done).toBe(false);
    // On a SQLite file the job's worker does the checkpoints: the relay's connection leaves them while it runs.
    const autocheckpoint = (s: TestServer) => sqliteHandle(s.ctx.db)?.pragma('wal_autocheckpoint', { simple: true });
    const onFile = dialect === 'sqlite' && !sqliteHandle(first.ctx.db)!.memory;
    if (onFile) expect(autocheckpoint(first)).toBe(0);
    await first.close();

    const second = await startTestServer(dialect, { reuse: first });
    servers.push(second);
    const after = root.withApp(second.app);
    // What the console reads after a reload: the running job (or, if it already ended, the last).
    const current = (await after.get('/api/log/deletion')).body.data;
    expect(current.id).toBe(job.id);
    expect(current.deleted).toBeGreaterThanOrEqual(partway.deleted);
    expect(current.deleted).toBeLessThan(due);
    const finished = await until(async () => {
      const p = (await after.get(`/api/log/deletion/${job.id}`)).body.data;
      return p.done && p;
    }, 'the resumed deletion to end', 60_000);
    expect(finished).toMatchObject({ status: 'done', error: '', deleted: due });
    expect(finished.finished_at).toBeGreaterThanOrEqual(finished.started_at);
    if (onFile) await until(async () => autocheckpoint(second) === 1000, 'the checkpoints back on the relay connection', 10_000);
    expect(await count(second, 2, true)).toBe(0);
    expect(await count(second, 2, false)).toBe(keptConsume);
    expect(await count(second, 5, true) + (await count(second, 5, false))).toBe(errors);
    expect((await after.get('/api/log/deletion')).body.data).toMatchObject({ id: job.id, status: 'done' });
    expect((await after.get('/api/log/deletion/999999')).status).toBe(404);
  }, 180_000);
});
