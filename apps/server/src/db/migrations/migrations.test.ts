import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, MysqlDialect, PostgresDialect, SqliteDialect, sql, type Dialect } from 'kysely';
import { createPool as createMysqlPool } from 'mysql2';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../schema.js';
import { INDEXES, down as down0001 } from './0001_initial.js';
import { down as down0003 } from './0003_stored_responses.js';
import { LOG_LIST_INDEXES, STATISTICS_PERIOD_INDEX, SUPERSEDED_LOG_INDEXES } from './0016_log_list_indexes.js';
import { TOTALS_MODEL_INDEX, USER_PERIOD_INDEX, down as down0019, up as up0019 } from './0019_statistics_totals.js';
import { down as down0022, up as up0022 } from './0022_capture_stream.js';
import { down as down0023, up as up0023 } from './0023_task_limit_windows.js';
import { down as down0028, up as up0028 } from './0028_background_responses.js';
import { migrations } from './index.js';

/**
 * Runs the real migration list with Kysely's Migrator on each dialect, on a throw-away
 * database: SQLite in memory always, PostgreSQL and MySQL/MariaDB when their DSN is set.
 */

const PG_DSN = process.env.TEST_POSTGRES_DSN;
const MYSQL_DSN = process.env.TEST_MYSQL_DSN;
if (!PG_DSN) console.warn('skipping postgres migration tests: TEST_POSTGRES_DSN not set');
if (!MYSQL_DSN) console.warn('skipping mysql migration tests: TEST_MYSQL_DSN not set');

const TABLES = [
  'users', 'tokens', 'channels', 'options', 'redemptions', 'logs', 'prices', 'user_groups', 'payments', 'orders',
  'telegram_menus', 'midjourneys', 'tasks', 'statistics', 'statistics_months', 'statistics_month_generated_histories',
  'model_owned_by', 'model_info', 'webauthn_credentials', 'stored_responses',
];

type DialectName = 'sqlite' | 'postgres' | 'mysql';

interface Target {
  dialect: Dialect;
  /** PostgreSQL: the scratch schema holding the tables. */
  schema?: string;
  /** Drops the throw-away schema or database (after the Kysely instance is destroyed). */
  dispose(): Promise<void>;
}

const scratchName = () => `t_${randomBytes(6).toString('hex')}`;

async function openSqlite(): Promise<Target> {
  return { dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }), dispose: async () => {} };
}

async function openPostgres(dsn: string): Promise<Target> {
  const schema = scratchName();
  const admin = new pg.Client({ connectionString: dsn });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  // Same conversions as db/index.ts (int8 and numeric as numbers), scoped to this pool.
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;
  const pool = new pg.Pool({ connectionString: dsn, max: 2, options: `-c search_path=${schema}`, types: { getTypeParser } });
  return {
    dialect: new PostgresDialect({ pool }),
    schema,
    dispose: async () => {
      const client = new pg.Client({ connectionString: dsn });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

async function openMysql(dsn: string): Promise<Target> {
  const database = scratchName();
  const admin = await mysql.createConnection({ uri: dsn });
  // latin1 on purpose: the migration must make its tables utf8mb4 whatever the database default.
  await admin.query(`CREATE DATABASE ${database} CHARACTER SET latin1`);
  await admin.end();
  const url = new URL(dsn);
  url.pathname = `/${database}`;
  const pool = createMysqlPool({
    uri: url.toString(),
    connectionLimit: 2,
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
  });
  return {
    dialect: new MysqlDialect({ pool }),
    dispose: async () => {
      const conn = await mysql.createConnection({ uri: dsn });
      await conn.query(`DROP DATABASE IF EXISTS ${database}`);
      await conn.end();
    },
  };
}

async function indexNames(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
      : dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
        : sql<{ name: string }>`select distinct index_name as name from information_schema.statistics where table_schema = database()`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

function migrationSuite(dialect: DialectName, dsn: string | undefined, open: (dsn: string) => Promise<Target>) {
  describe.skipIf(!dsn)(`migrations on ${dialect}`, () => {
    let db: Kysely<Database>;
    let target: Target | undefined;
    // PostgreSQL introspection lists every schema: only the scratch schema counts.
    const tableNames = async () =>
      (await db.introspection.getTables()).filter((t) => !target?.schema || t.schema === target.schema).map((t) => t.name);
    // Kysely looks for its own tables in every schema unless told which: other suites' schemas must not count.
    const migrator = () =>
      new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(target?.schema ? { migrationTableSchema: target.schema } : {}) });

    beforeAll(async () => {
      target = await open(dsn!);
      db = new Kysely<Database>({ dialect: target.dialect });
    });

    afterAll(async () => {
      await db?.destroy();
      await target?.dispose();
    });

    it('applies every migration in order', async () => {
      const { error, results } = await migrator().migrateToLatest();
      expect(error).toBeUndefined();
      expect(results?.map((r) => [r.migrationName, r.status])).toEqual(
        Object.keys(migrations).map((name) => [name, 'Success']),
      );
    });

    it('creates every table and every index', async () => {
      const tables = await tableNames();
      for (const table of TABLES) expect(tables).toContain(table);
      const indexes = await indexNames(db, dialect);
      for (const [table, columns] of INDEXES) {
        const name = `idx_${table}_${columns.join('_')}`;
        if ([...SUPERSEDED_LOG_INDEXES, 'idx_statistics_user_id_date'].includes(name)) expect(indexes).not.toContain(name);
        else expect(indexes).toContain(name);
      }
      for (const [name] of [...LOG_LIST_INDEXES, USER_PERIOD_INDEX, TOTALS_MODEL_INDEX]) expect(indexes).toContain(name);
      // 0016's covering roll-up index gave way to statistics_totals (0019).
      expect(indexes).not.toContain(STATISTICS_PERIOD_INDEX[0]);
      expect(await tableNames()).toContain('statistics_totals');
      expect(indexes).toContain('idx_prices_model_unique');
      expect(indexes).toContain('idx_stored_responses_expires_at');
    });

    it('round-trips users with 64-bit quota, defaults and utf8mb4 text', async () => {
      const big = 9_000_000_000; // beyond 32 bits (api.md §8.1)
      await db.insertInto('users').values({ username: 'alice', password: 'x', quota: big, display_name: '未知 😀' }).execute();
      const user = await db.selectFrom('users').selectAll().where('username', '=', 'alice').executeTakeFirstOrThrow();
      expect(typeof user.id).toBe('number');
      expect(user).toMatchObject({
        quota: big, used_quota: 0, request_count: 0, group: 'default', role: 1, status: 1, display_name: '未知 😀',
        telegram_id: 0, inviter_id: 0, aff_code: null, access_token: null, deleted_at: null,
      });
      await expect(db.insertInto('users').values({ username: 'alice', password: 'y' }).execute()).rejects.toThrow();
    });

    it('round-trips tokens with their defaults; keys are unique', async () => {
      const key = 'k'.repeat(59);
      await db.insertInto('tokens').values({ user_id: 1, key, name: 'main' }).execute();
      const token = await db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
      expect(token).toMatchObject({
        user_id: 1, name: 'main', status: 1, expired_time: -1, remain_quota: 0, unlimited_quota: 0,
        used_quota: 0, group: '', backup_group: '', setting: null, deleted_at: null,
      });
      await expect(db.insertInto('tokens').values({ user_id: 2, key, name: 'dup' }).execute()).rejects.toThrow();
    });

    it('round-trips channels with their defaults and JSON text', async () => {
      const mapping = JSON.stringify({ 'gpt-4': '+gpt-4o' });
      await db.insertInto('channels').values({ key: 'sk-x', name: 'c1', models: 'gpt-4o', model_mapping: mapping }).execute();
      const channel = await db.selectFrom('channels').selectAll().where('name', '=', 'c1').executeTakeFirstOrThrow();
      expect(channel).toMatchObject({
        key: 'sk-x', type: 0, status: 1, weight: 1, priority: 0, balance: 0, base_url: '', proxy: '', group: 'default',
        tag: '', used_quota: 0, pre_cost: 1, only_chat: 0, disabled_source: '', disabled_reason: null, deleted_at: null,
      });
      expect(JSON.parse(channel.model_mapping!)).toEqual({ 'gpt-4': '+gpt-4o' });
    });

    it('round-trips logs with the relay columns', async () => {
      const metadata = JSON.stringify({ cached_tokens: 3 });
      await db
        .insertInto('logs')
        .values({ user_id: 1, created_at: 1_700_000_000, type: 2, content: '未知 😀', model_name: 'gpt-4o', quota: 9_000_000_000, metadata })
        .execute();
      const log = await db.selectFrom('logs').selectAll().where('user_id', '=', 1).executeTakeFirstOrThrow();
      expect(log).toMatchObject({
        created_at: 1_700_000_000, type: 2, content: '未知 😀', quota: 9_000_000_000, username: '', token_name: '',
        prompt_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, is_stream: 0,
        request_id: '', estimated: 0, channel_id: 0,
      });
      expect(JSON.parse(log.metadata!)).toEqual({ cached_tokens: 3 });
    });

    it('keeps 4 decimals on group ratios and gateway fees (api.md §8.4)', async () => {
      await db.insertInto('user_groups').values({ symbol: 'vip', ratio: 0.875 }).execute();
      await db.insertInto('payments').values({ type: 'epay', uuid: 'u'.repeat(32), name: 'Pay', percent_fee: 0.006 }).execute();
      const group = await db.selectFrom('user_groups').selectAll().executeTakeFirstOrThrow();
      const payment = await db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
      expect(group).toMatchObject({ ratio: 0.875, api_rate: 600, enable: 1, public: 0 });
      expect(payment).toMatchObject({ percent_fee: 0.006, fixed_fee: 0, sort: 1, enable: 1, currency: 'USD' });
    });

    it('keys statistics by (date, user_id, channel_id, model_name)', async () => {
      const row = { date: '2026-01-01', user_id: 1, channel_id: 1, model_name: 'm' };
      await db.insertInto('statistics').values(row).execute();
      await db.insertInto('statistics').values({ ...row, channel_id: 2 }).execute();
      await expect(db.insertInto('statistics').values(row).execute()).rejects.toThrow();
      const count = await db.selectFrom('statistics').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(2);
    });

    it('fills statistics_totals from the daily roll-up when 0019 adds it', async () => {
      await down0019(db);
      await db.deleteFrom('statistics').execute();
      const sums = (n: number) => ({ request_count: n, quota: 10 * n, prompt_tokens: 100 * n, completion_tokens: 1000 * n, request_time: 7 * n });
      await db
        .insertInto('statistics')
        .values([
          { date: '2026-01-01', user_id: 1, channel_id: 1, model_name: 'a', ...sums(1) },
          { date: '2026-01-01', user_id: 2, channel_id: 1, model_name: 'a', ...sums(2) },
          { date: '2026-01-01', user_id: 2, channel_id: 1, model_name: 'b', ...sums(4) },
          { date: '2026-01-02', user_id: 1, channel_id: 1, model_name: 'a', ...sums(8) },
          { date: '2026-01-02', user_id: 3, channel_id: 2, model_name: 'a', ...sums(16) },
        ])
        .execute();
      await up0019(db);
      const totals = await db.selectFrom('statistics_totals').selectAll().orderBy('date').orderBy('channel_id').orderBy('model_name').execute();
      expect(totals).toEqual([
        { date: '2026-01-01', channel_id: 1, model_name: 'a', ...sums(3) },
        { date: '2026-01-01', channel_id: 1, model_name: 'b', ...sums(4) },
        { date: '2026-01-02', channel_id: 1, model_name: 'a', ...sums(8) },
        { date: '2026-01-02', channel_id: 2, model_name: 'a', ...sums(16) },
      ]);
      await expect(db.insertInto('statistics_totals').values({ date: '2026-01-01', channel_id: 1, model_name: 'a' }).execute()).rejects.toThrow();
    });

    it('marks older captures whose answer is an event stream as streams when 0022 adds the flag', async () => {
      await down0022(db);
      const bodies = ['data: {"choices":[]}\n\n', 'event: message_start\ndata: {}\n\n', '{"data: not a stream":1}', ''];
      await db.insertInto('log_captures').values(bodies.map((response_body) => ({ created_at: 1, request_id: 'r-0022', response_body }))).execute();
      await up0022(db);
      const rows = await db.selectFrom('log_captures').select(['response_body', 'stream']).where('request_id', '=', 'r-0022').orderBy('id').execute();
      expect(rows.map((r) => r.stream)).toEqual([1, 1, 0, 0]);
    });

    it('adds the spending-window keys to both task tables when 0023 runs; older rows have none', async () => {
      await down0023(db);
      await db.insertInto('midjourneys').values({ user_id: 1, mj_id: 'mj-0023' }).execute();
      await db.insertInto('tasks').values({ user_id: 1, task_id: 'task-0023' }).execute();
      await up0023(db);
      // Three scopes with a daily and a monthly cap each, under a long model and group name.
      const scopes = ['t12345678', `m12345678:${'g'.repeat(60)}:${'kling-video_'.repeat(8)}`, 'u12345678'];
      const keys = JSON.stringify(scopes.flatMap((s) => [`relay-spend-d:${s}:20614`, `relay-spend-m:${s}:24317`]));
      await db.insertInto('tasks').values({ user_id: 1, task_id: 'task-0023-new', limit_windows: keys }).execute();
      expect(await db.selectFrom('midjourneys').select('limit_windows').where('mj_id', '=', 'mj-0023').execute()).toEqual([{ limit_windows: null }]);
      const tasks = await db.selectFrom('tasks').select(['task_id', 'limit_windows']).where('task_id', 'like', 'task-0023%').orderBy('id').execute();
      expect(tasks).toEqual([{ task_id: 'task-0023', limit_windows: null }, { task_id: 'task-0023-new', limit_windows: keys }]);
    });

    it('keeps background responses with events past 64 KB (0028), and drops the table in its down()', async () => {
      const events = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ type: 'response.output_text.delta', sequence_number: i, delta: 'x'.repeat(40) })));
      expect(events.length).toBeGreaterThan(65_536);
      await db.insertInto('background_responses').values({ id: 'resp_bg0026', kind: 'local', status: 'pending', user_id: 1, facts: '{}', response: '{}', events, created_at: 1, updated_at: 1 }).execute();
      const row = await db.selectFrom('background_responses').selectAll().where('id', '=', 'resp_bg0026').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: 'local', status: 'pending', held: 0, billed: 0, node: '' });
      expect(row.events).toBe(events);
      await down0028(db);
      expect(await tableNames()).not.toContain('background_responses');
      await up0028(db);
      expect(await tableNames()).toContain('background_responses');
    });

    it('does nothing when run again', async () => {
      const { error, results } = await migrator().migrateToLatest();
      expect(error).toBeUndefined();
      expect(results).toEqual([]);
      expect(await db.selectFrom('users').select('username').execute()).toEqual([{ username: 'alice' }]);
    });

    it('drops every table in down()', async () => {
      await down0003(db);
      await down0001(db as unknown as Kysely<unknown>);
      const tables = await tableNames();
      for (const table of TABLES) expect(tables).not.toContain(table);
    });
  });
}

migrationSuite('sqlite', ':memory:', openSqlite);
migrationSuite('postgres', PG_DSN, openPostgres);
migrationSuite('mysql', MYSQL_DSN, openMysql);
