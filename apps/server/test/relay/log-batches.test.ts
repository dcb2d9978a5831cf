import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompiledQuery } from 'kysely';
import type { AppContext } from '../../src/app-context.js';
import type { NewLog } from '../../src/db/repos/logs.js';
import { LOG_COLUMNS, LOG_DEFAULTS } from '../../src/db/repos/log-writes-sqlite.js';
import { JSON_CHUNK_ROWS, MAX_PARAMS } from '../../src/db/repos/log-writes-batch.js';
import { Recorder } from '../../src/relay/pipeline/accounting/recorder.js';
import { startTestServer, testDialects, type TestServer } from '../harness.js';

const DAY = 1_790_000_000; // 2026-09-21 UTC

/** A row whose every column differs from its neighbours' and from every other column's value. */
function fullRow(i: number): NewLog {
  const row = Object.fromEntries(LOG_COLUMNS.map((c, k) => [c, typeof LOG_DEFAULTS[c] === 'number' ? 1000 * k + i : `${c}-${i}`])) as Record<string, unknown>;
  row.type = 2;
  row.created_at = DAY + i;
  row.user_id = 1 + (i % 2);
  row.model_name = `m${i % 3}`;
  row.channel_id = 7;
  return row as NewLog;
}

describe.each(testDialects())('log and roll-up flushes on %s', (dialect) => {
  let server: TestServer;
  let recorder: Recorder;
  let statements: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    // On the executors' prototype: a transaction runs on an executor of its own.
    const proto = Object.getPrototypeOf(server.ctx.db.getExecutor()) as { executeQuery(q: CompiledQuery): Promise<unknown> };
    const execute = proto.executeQuery;
    vi.spyOn(proto, 'executeQuery').mockImplementation(function (this: unknown, q: CompiledQuery) {
      statements.push(q.sql);
      return execute.call(this, q);
    });
    // An hour-long interval: only the test's flushes write.
    const ctx = { config: { BATCH_FLUSH_MS: 3_600_000 }, db: server.ctx.db, log: { error: (e: unknown) => errors.push(e), warn: () => undefined } } as unknown as AppContext;
    recorder = new Recorder(ctx);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await recorder.close();
    await server.destroy();
  });
  beforeEach(async () => {
    await server.ctx.db.deleteFrom('logs').execute();
    await server.ctx.db.deleteFrom('statistics').execute();
    await server.ctx.db.deleteFrom('statistics_totals').execute();
    statements = [];
    errors.length = 0;
  });
  const inserts = (table: string) => statements.filter((s) => new RegExp(`^insert into [\`"]?${table}[\`"]? `, 'i').test(s)).length;
  const stored = () => server.ctx.db.selectFrom('logs').selectAll().orderBy('created_at').execute();
  /** The day × channel × model totals, and the daily roll-up summed the same way: they must be equal. */
  const totalsAndRollup = async () => {
    const sums = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
    const totals = await server.ctx.db.selectFrom('statistics_totals').selectAll().orderBy('date').orderBy('channel_id').orderBy('model_name').execute();
    const grouped = await server.ctx.db
      .selectFrom('statistics')
      .select((eb) => ['date', 'channel_id', 'model_name', ...sums.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['date', 'channel_id', 'model_name'])
      .orderBy('date')
      .orderBy('channel_id')
      .orderBy('model_name')
      .execute();
    return { totals, rollup: grouped.map((g) => ({ ...g, ...Object.fromEntries(sums.map((c) => [c, Number(g[c])])) })) };
  };

  it('writes a flush of 300 rows, every column in place, in one INSERT and one roll-up upsert', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => fullRow(i));
    for (const r of rows) recorder.log(r);
    await recorder.flush();
    const got = await stored();
    expect(got).toHaveLength(300);
    for (let i = 0; i < 300; i++) for (const c of LOG_COLUMNS) expect(got[i][c as keyof (typeof got)[number]], `row ${i} ${c}`).toEqual(rows[i][c]);
    const stats = await server.ctx.db.selectFrom('statistics').selectAll().orderBy('user_id').orderBy('model_name').execute();
    const expected = [1, 2].flatMap((user) =>
      ['m0', 'm1', 'm2'].map((model) => {
        const mine = rows.filter((r) => r.user_id === user && r.model_name === model);
        const sum = (c: 'quota' | 'prompt_tokens' | 'completion_tokens' | 'request_time') => mine.reduce((a, r) => a + Number(r[c]), 0);
        return { date: '2026-09-21', user_id: user, channel_id: 7, model_name: model, request_count: mine.length, quota: sum('quota'), prompt_tokens: sum('prompt_tokens'), completion_tokens: sum('completion_tokens'), request_time: sum('request_time') };
      }),
    );
    expect(stats).toEqual(expected);
    const { totals, rollup } = await totalsAndRollup();
    expect(totals).toHaveLength(3);
    expect(totals[0]).toMatchObject({ date: '2026-09-21', channel_id: 7, model_name: 'm0', request_count: expected[0].request_count + expected[3].request_count });
    expect(totals).toEqual(rollup);
    if (dialect !== 'sqlite') {
      // Before: two 200-row log INSERTs and one upsert per roll-up row (6).
      expect(inserts('logs')).toBe(1);
      expect(inserts('statistics')).toBe(1);
      expect(inserts('statistics_totals')).toBe(1);
    }
    // A second flush adds to the same roll-up rows.
    recorder.log(fullRow(0));
    await recorder.flush();
    const first = await server.ctx.db.selectFrom('statistics').selectAll().where('user_id', '=', 1).where('model_name', '=', 'm0').executeTakeFirstOrThrow();
    expect(first.request_count).toBe(expected[0].request_count + 1);
    expect(first.quota).toBe(expected[0].quota + Number(fullRow(0).quota));
    const after = await totalsAndRollup();
    expect(after.totals).toEqual(after.rollup);
    expect(after.totals[0].request_count).toBe(totals[0].request_count + 1);
  });

  // Dialect-specific limits: defined only where they apply, so nothing shows as skipped.
  if (dialect === 'postgres') it('sends PostgreSQL a flush as JSON, split into chunks, rows missing columns taking their defaults', async () => {
    const n = JSON_CHUNK_ROWS + 5;
    const sparse: NewLog = { user_id: 3, created_at: DAY + n, type: 2, request_id: 'sparse' };
    for (let i = 0; i < n; i++) recorder.log(fullRow(i));
    recorder.log(sparse);
    await recorder.flush();
    expect(inserts('logs')).toBe(2);
    expect(statements.filter((s) => /^insert into "?logs"? /i.test(s)).every((s) => s.includes('json_to_recordset'))).toBe(true);
    const got = await stored();
    expect(got).toHaveLength(n + 1);
    expect(got[n - 1]).toMatchObject({ request_id: `request_id-${n - 1}`, metadata: `metadata-${n - 1}` });
    const { id: _id, ...defaults } = got[n];
    expect(defaults).toEqual({ ...LOG_DEFAULTS, ...sparse });
  });

  if (dialect === 'postgres') it('keeps the good rows of every JSON chunk that holds a bad one', async () => {
    const n = JSON_CHUNK_ROWS + 5;
    const bad = new Set([1, JSON_CHUNK_ROWS + 1]);
    for (let i = 0; i < n; i++) recorder.log(bad.has(i) ? { ...fullRow(i), username: 'u'.repeat(100) } : fullRow(i));
    await recorder.flush();
    const got = await stored();
    expect(got).toHaveLength(n - 2);
    expect(got.some((r) => r.request_id === `request_id-${JSON_CHUNK_ROWS + 1}`)).toBe(false);
    expect(got.at(-1)).toMatchObject({ request_id: `request_id-${n - 1}` });
    expect(errors).toHaveLength(1);
  });

  if (dialect === 'postgres') it('takes a row JSON cannot carry (a lone surrogate) through bound values, with its batch', async () => {
    for (let i = 0; i < 4; i++) recorder.log(i === 1 ? { ...fullRow(i), content: 'half \ud83d of an emoji' } : fullRow(i));
    await recorder.flush();
    const got = await stored();
    expect(got.map((r) => r.request_id)).toEqual(['request_id-0', 'request_id-1', 'request_id-2', 'request_id-3']);
    expect(got[1].content).toBe('half \ufffd of an emoji');
    expect(inserts('logs')).toBe(2); // the refused JSON, then the four rows bound
    expect(errors).toEqual([]);
  });

  if (dialect === 'postgres') it('splits bound values at PostgreSQL’s bind-parameter limit', async () => {
    // A chunk refused for one row goes through bound values: this one is larger than one statement may bind.
    const perStatement = Math.floor(MAX_PARAMS / LOG_COLUMNS.length);
    const n = perStatement + 5;
    for (let i = 0; i < n; i++) recorder.log(i === n - 1 ? { ...fullRow(i), username: 'u'.repeat(100) } : fullRow(i));
    await recorder.flush();
    const got = await stored();
    expect(got).toHaveLength(n - 1);
    expect(got[n - 2]).toMatchObject({ request_id: `request_id-${n - 2}`, metadata: `metadata-${n - 2}` });
    expect(errors).toHaveLength(1);
  });

  if (dialect === 'mysql') it('keeps each MySQL statement well under max_allowed_packet', async () => {
    const content = 'x'.repeat(20_000); // counted at 3 bytes a character: ≈60 KB a row
    for (let i = 0; i < 60; i++) recorder.log({ ...fullRow(i), content: `${content}${i}` });
    await recorder.flush();
    expect(inserts('logs')).toBeGreaterThan(1);
    expect(inserts('logs')).toBeLessThanOrEqual(5);
    const got = await stored();
    expect(got.map((r) => r.content)).toEqual(Array.from({ length: 60 }, (_, i) => `${content}${i}`));
  });

  if (dialect !== 'sqlite') it('loses only the row the database refuses, and reports it', async () => {
    for (let i = 0; i < 5; i++) recorder.log(i === 2 ? { ...fullRow(i), username: 'u'.repeat(100) } : fullRow(i));
    await recorder.flush();
    expect((await stored()).map((r) => r.request_id)).toEqual(['request_id-0', 'request_id-1', 'request_id-3', 'request_id-4']);
    expect(errors).toHaveLength(1);
  });

  if (dialect !== 'sqlite') it('keeps both roll-ups equal when a roll-up row is refused (the rest of the flush commits)', async () => {
    // A model name longer than the column: its log row, roll-up row and totals row are refused alike.
    for (let i = 0; i < 6; i++) recorder.log(i === 4 ? { ...fullRow(i), model_name: 'm'.repeat(300) } : fullRow(i));
    await recorder.flush();
    expect((await stored()).map((r) => r.request_id)).toEqual(['request_id-0', 'request_id-1', 'request_id-2', 'request_id-3', 'request_id-5']);
    expect(errors.length).toBeGreaterThan(0);
    const { totals, rollup } = await totalsAndRollup();
    expect(totals.reduce((a, t) => a + t.request_count, 0)).toBe(5);
    expect(totals).toEqual(rollup);
  });
});
