import { CompiledQuery } from 'kysely';
import { LOG_COUNT_CAP, REST_SERIES, type LogListQuery, type PeriodSeriesPoint } from '@one-hub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_MODELS, seedBig, seedTokenName, seedUsername, type SeedResult } from '../../bench/seed-big.js';
import { logPageQueries } from '../../src/db/repos/log-pages.js';
import { periodKeyTotals, periodUsage, periodUsageQuery } from '../../src/db/repos/statistics.js';
import { keptKeys } from '../../src/console/dashboard/series.js';
import type { Db } from '../../src/db/index.js';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestDialect, type TestServer } from '../harness.js';

/**
 * Log lists and analytics on a seeded table (sized for CI; `npm run seed:big` and `npm run
 * bench:console` measure two million rows): every console filter is served by an index in the time
 * order, counts stop at the cap, keyset pages equal offset pages, and analytics sums equal the log rows'.
 */

const SIZE = { users: 60, tokens: 240, channels: 40, logs: 12_000, days: 20 };

/** The plan of the page's row query: the index names it reads and whether it sorts. */
async function plan(db: Db, dialect: TestDialect, query: { sql: string; parameters: readonly unknown[] }): Promise<{ indexes: string; sorts: boolean; text: string }> {
  if (dialect === 'sqlite') {
    const rows = (await db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]))).rows as Array<{ detail: string }>;
    const text = rows.map((r) => r.detail).join('\n');
    return { indexes: text, sorts: /TEMP B-TREE FOR ORDER BY/.test(text), text };
  }
  if (dialect === 'postgres') {
    // A CI-sized table is small enough that a sequential scan and a sort may cost less; with them
    // priced out, the plan shows whether an index can deliver the filter in the list's order.
    const rows = await db.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
      await conn.executeQuery(CompiledQuery.raw('SET enable_sort = off'));
      await conn.executeQuery(CompiledQuery.raw('SET enable_bitmapscan = off'));
      const res = (await conn.executeQuery(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]))).rows as Array<{ 'QUERY PLAN': string }>;
      await conn.executeQuery(CompiledQuery.raw('RESET ALL'));
      return res;
    });
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    return { indexes: text, sorts: /\bSort\b/.test(text), text };
  }
  const rows = (await db.executeQuery(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]))).rows as Array<{ table: string; key: string | null; Extra: string | null }>;
  const logs = rows.filter((r) => r.table === 'logs');
  const text = JSON.stringify(rows);
  return { indexes: logs.map((r) => r.key ?? '').join(','), sorts: logs.some((r) => /filesort/i.test(r.Extra ?? '')), text };
}

describe.each(testDialects())('log lists and analytics on a seeded table on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let seed: SeedResult;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    seed = await seedBig(server.ctx.db, SIZE);
  }, 120_000);
  afterAll(async () => server?.destroy());

  const page = { page: 1, size: 10, order: '-created_at', keyword: '' };
  // Each filter the console's log screen sends, with the index that must answer it in time order.
  // Values match few rows: for a value most rows carry, walking the time index is the better plan.
  const FILTERS: Array<[string, LogListQuery, string, boolean?]> = [
    ['default view', {}, 'idx_logs_time'],
    ['type tab', { log_type: 3 }, 'idx_logs_type_time'],
    ['user', { username: seedUsername(3) }, 'idx_logs_username_time'],
    ['token name', { token_name: seedTokenName(7) }, 'idx_logs_token_name_time'],
    ['model', { model_name: SEED_MODELS[SEED_MODELS.length - 1] }, 'idx_logs_model_time'],
    ['channel', { channel_id: 5 }, 'idx_logs_channel_time'],
    ['source IP', { source_ip: '10.3.0.1' }, 'idx_logs_source_ip_time'],
    ['own rows', {}, 'idx_logs_user_time', true],
  ];

  it.each(FILTERS)('lists by %s from its index, in time order, without sorting', async (_name, filter, index, own) => {
    const q = logPageQueries(server.ctx.db, filter, page, own ? seed.userIds[SIZE.users - 1] : undefined).rows.compile();
    const p = await plan(server.ctx.db, dialect, q);
    expect(p.indexes, p.text).toContain(index);
    expect(p.sorts, p.text).toBe(false);
  });

  it('sorts by quota from its index', async () => {
    const q = logPageQueries(server.ctx.db, {}, { ...page, order: '-quota' }, undefined).rows.compile();
    const p = await plan(server.ctx.db, dialect, q);
    expect(p.indexes, p.text).toContain('idx_logs_quota');
    expect(p.sorts, p.text).toBe(false);
  });

  it('caps the count beyond the threshold and counts exactly below it', async () => {
    const all = await root.get('/api/log/?page=1&size=10&order=-created_at');
    expect(all.body.data).toMatchObject({ total_count: LOG_COUNT_CAP, total_capped: true, page: 1, size: 10 });
    expect(all.body.data.data).toHaveLength(10);
    const few = await root.get(`/api/log/?token_name=${seedTokenName(7)}`);
    const exact = await server.ctx.db.selectFrom('logs').where('token_name', '=', seedTokenName(7)).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(exact.n)).toBeGreaterThan(0);
    expect(few.body.data).toMatchObject({ total_count: Number(exact.n), total_capped: false });
  });

  it.each(['-created_at', '-quota', 'created_at', '-id'])('pages by cursor exactly as by offset (order %s)', async (order) => {
    let cursor = '';
    for (let p = 1; p <= 3; p++) {
      const byOffset = await root.get(`/api/log/?page=${p}&size=25&order=${order}&log_type=2`);
      const byCursor = await root.get(`/api/log/?page=${p}&size=25&order=${order}&log_type=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(byCursor.body.data.data.map((l: { id: number }) => l.id)).toEqual(byOffset.body.data.data.map((l: { id: number }) => l.id));
      cursor = byCursor.body.data.next_cursor;
      expect(cursor).toMatch(/^\d+_\d+$/);
    }
    // No cursor where the order has no keyset; a malformed one is refused.
    expect((await root.get('/api/log/?order=model_name')).body.data.next_cursor).toBeUndefined();
    expect((await root.get('/api/log/?cursor=1;drop')).status).toBe(400);
  });

  // Analytics over all users reads the day × channel × model totals, one user's the roll-up by its
  // covering user index. MySQL: the key the roll-up table is read by (its primary key is the clustered table).
  const PERIOD_READS: Array<[string, 'channel' | 'model', boolean, Record<TestDialect, RegExp>]> = [
    ['all users by channel', 'channel', false, { sqlite: /statistics_totals USING PRIMARY KEY/, postgres: /Index Only Scan using idx_statistics_totals_channel/, mysql: /^PRIMARY$/ }],
    ['all users by model', 'model', false, { sqlite: /COVERING INDEX idx_statistics_totals_model/, postgres: /Index Only Scan using idx_statistics_totals_model/, mysql: /^(PRIMARY|idx_statistics_totals_model)$/ }],
    ['one user by channel', 'channel', true, { sqlite: /COVERING INDEX idx_statistics_user_period/, postgres: /Index Only Scan using idx_statistics_user_period/, mysql: /^idx_statistics_user_period$/ }],
  ];
  it.each(PERIOD_READS)('analytics for %s reads an index', async (_name, groupType, one, expected) => {
    const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
    const q = periodUsageQuery(server.ctx.db, day(seed.from), day(seed.to), groupType, one ? seed.userIds[0] : 0).compile();
    const p = await plan(server.ctx.db, dialect, q);
    if (dialect !== 'mysql') return expect(p.text).toMatch(expected[dialect]);
    const rollup = (JSON.parse(p.text) as Array<{ table: string; key: string | null }>).find((r) => r.table === (one ? 'statistics' : 'statistics_totals'));
    expect(rollup?.key ?? '', p.text).toMatch(expected.mysql);
  });

  it('analytics sums equal the sums of the log rows, per day and label, in every grouping', async () => {
    const logs = await server.ctx.db
      .selectFrom('logs')
      .where('type', '=', 2)
      .where('created_at', '>=', seed.from)
      .select(['created_at', 'model_name', 'channel_id', 'quota', 'prompt_tokens', 'completion_tokens'])
      .execute();
    const byDayModel = new Map<string, { requests: number; quota: number; tokens: number }>();
    for (const l of logs) {
      const key = `${new Date(l.created_at * 1000).toISOString().slice(0, 10)}|${l.model_name}`;
      const s = byDayModel.get(key) ?? { requests: 0, quota: 0, tokens: 0 };
      s.requests += 1;
      s.quota += l.quota;
      s.tokens += l.prompt_tokens + l.completion_tokens;
      byDayModel.set(key, s);
    }
    const range = `start_timestamp=${seed.from}&end_timestamp=${seed.to}`;
    const byModel = (await root.get(`/api/analytics/period?${range}&group_type=model`)).body.data.channel_statistics;
    const got = new Map<string, { requests: number; quota: number; tokens: number }>(
      byModel.map((s: { Date: string; Channel: string; RequestCount: number; Quota: number; PromptTokens: number; CompletionTokens: number }) => [
        `${s.Date}|${s.Channel}`,
        { requests: s.RequestCount, quota: s.Quota, tokens: s.PromptTokens + s.CompletionTokens },
      ]),
    );
    expect(got).toEqual(byDayModel);
    const totalQuota = logs.reduce((a, l) => a + l.quota, 0);
    for (const groupType of ['channel', 'model_type']) {
      const series = (await root.get(`/api/analytics/period?${range}&group_type=${groupType}`)).body.data.channel_statistics as Array<{ Quota: number; RequestCount: number; Channel: string }>;
      expect(series.reduce((a, s) => a + s.Quota, 0)).toBe(totalQuota);
      expect(series.reduce((a, s) => a + s.RequestCount, 0)).toBe(logs.length);
    }
    const channels = (await root.get(`/api/analytics/period?${range}&group_type=channel`)).body.data.channel_statistics as Array<{ Channel: string }>;
    expect(new Set(channels.map((s) => s.Channel))).toContain('bench-channel-1');
    // A user's own analytics: the rows of that user only.
    const mine = logs.length && (await server.ctx.db.selectFrom('logs').where('type', '=', 2).where('user_id', '=', seed.userIds[0]).select((eb) => eb.fn.sum<number>('quota').as('q')).executeTakeFirstOrThrow());
    const series = (await root.get(`/api/analytics/period?${range}&group_type=model&user_id=${seed.userIds[0]}`)).body.data.channel_statistics as Array<{ Quota: number }>;
    expect(series.reduce((a, s) => a + s.Quota, 0)).toBe(Number(mine && mine.q));
  });

  describe('folded to the top labels', () => {
    const TOP = 3;
    const range = () => `start_timestamp=${seed.from}&end_timestamp=${seed.to}`;
    const SUMS = ['RequestCount', 'Quota', 'PromptTokens', 'CompletionTokens', 'RequestTime'] as const;
    const perDay = (points: PeriodSeriesPoint[]) => {
      const days = new Map<string, number[]>();
      for (const p of points) days.set(p.Date, (days.get(p.Date) ?? SUMS.map(() => 0)).map((v, i) => v + p[SUMS[i]]));
      return days;
    };

    // Owners for twelve of the models (four owners), the others stay unowned: five model-type labels.
    beforeAll(async () => {
      const owners = await server.ctx.db.selectFrom('model_owned_by').select('id').orderBy('id').limit(4).execute();
      expect(owners).toHaveLength(4);
      await server.ctx.db
        .insertInto('prices')
        .values(SEED_MODELS.slice(0, 12).map((model, i) => ({ model, type: 'tokens', channel_type: owners[i % 4].id, input: 1, output: 1 })))
        .execute();
    });

    it.each([
      ['channel', 0],
      ['model', 0],
      ['model_type', 0],
      ['channel', 1],
    ] as const)('by %s (user %i): the top labels by quota stay as they were, the rest is one series, every day sums the same', async (groupType, user) => {
      const userId = user ? seed.userIds[0] : 0;
      const url = `/api/analytics/period?${range()}&group_type=${groupType}&user_id=${userId}`;
      const full = (await root.get(url)).body.data.channel_statistics as PeriodSeriesPoint[];
      const folded = (await root.get(`${url}&top=${TOP}`)).body.data.channel_statistics as PeriodSeriesPoint[];
      expect(perDay(folded)).toEqual(perDay(full));

      const quotaOf = new Map<string, number>();
      for (const p of full) quotaOf.set(p.Channel, (quotaOf.get(p.Channel) ?? 0) + p.Quota);
      expect(quotaOf.size).toBeGreaterThan(TOP + 1);
      const top = [...quotaOf.entries()].sort(([a, qa], [b, qb]) => qb - qa || (a < b ? -1 : 1)).slice(0, TOP).map(([label]) => label);
      expect(new Set(folded.map((p) => p.Channel))).toEqual(new Set([...top, REST_SERIES]));
      expect(folded.filter((p) => p.Channel !== REST_SERIES)).toEqual(full.filter((p) => top.includes(p.Channel)));
      // The rest is folded in the database: at most TOP + 1 rows a day leave it.
      const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
      const [from, to] = [day(seed.from), day(seed.to)];
      const keep = keptKeys(await periodKeyTotals(server.ctx.readDb, from, to, groupType, userId), groupType, TOP);
      const rows = await periodUsage(server.ctx.readDb, from, to, groupType, userId, keep!);
      expect(rows.length).toBeLessThanOrEqual(perDay(full).size * (TOP + 1));
    });

    it('answers every label when there are no more than the top', async () => {
      const url = `/api/analytics/period?${range()}&group_type=model_type`;
      expect((await root.get(`${url}&top=50`)).body.data).toEqual((await root.get(url)).body.data);
      expect((await root.get(`${url}&top=51`)).status).toBe(400);
    });
  });
});
