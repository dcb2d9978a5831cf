import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { ApiClient, startTestServer, testDialects } from '../harness.js';
import { importDatabase } from '../../src/import/run.js';
import { relayState } from '../../src/relay/state.js';
import { EVENTS } from '../../src/cache/events.js';

const DAY = 86_400;
const KEY = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7dEf0hIj3kLm6n'; // a legacy 48-character key

/** A SQLite database in the original's schema (api.md §1: gorm's tables and columns), with a few rows. */
function originalDatabase(upstream: string, logRows: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'onehub-go-')), 'one-api.db');
  const db = new Database(path);
  db.exec(`
    CREATE TABLE users (id integer PRIMARY KEY AUTOINCREMENT, username text UNIQUE, password text NOT NULL, display_name text, role integer DEFAULT 1,
      status integer DEFAULT 1, email text, github_id text, wechat_id text, access_token char(32) UNIQUE, quota integer DEFAULT 0, used_quota integer DEFAULT 0,
      request_count integer DEFAULT 0, "group" varchar(32) DEFAULT 'default', aff_code varchar(32) UNIQUE, inviter_id integer, created_time bigint, deleted_at datetime);
    CREATE TABLE tokens (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, "key" varchar(59) UNIQUE, status integer DEFAULT 1, name text, created_time bigint,
      accessed_time bigint, expired_time bigint DEFAULT -1, remain_quota integer DEFAULT 0, unlimited_quota numeric DEFAULT false, used_quota integer DEFAULT 0,
      "group" text DEFAULT '', setting json, chat_cache numeric, deleted_at datetime);
    CREATE TABLE channels (id integer PRIMARY KEY AUTOINCREMENT, type integer DEFAULT 0, "key" text, status integer DEFAULT 1, name text, weight integer DEFAULT 1,
      created_time bigint, base_url text DEFAULT '', other text, models text, "group" varchar(32) DEFAULT 'default', used_quota bigint DEFAULT 0,
      model_mapping text, priority bigint DEFAULT 0, test_model varchar(50) DEFAULT '', only_chat numeric DEFAULT false, config text, deleted_at datetime);
    CREATE TABLE options ("key" text PRIMARY KEY, value text);
    CREATE TABLE prices (model text, type text DEFAULT 'tokens', channel_type integer DEFAULT 0, input real DEFAULT 0, output real DEFAULT 0, locked numeric DEFAULT false);
    CREATE TABLE user_groups (id integer PRIMARY KEY AUTOINCREMENT, symbol text UNIQUE, name text, ratio decimal(10,2) DEFAULT 1, api_rate integer DEFAULT 600,
      public numeric DEFAULT false, promotion numeric DEFAULT false, min integer DEFAULT 0, max integer DEFAULT 0, enable numeric DEFAULT true);
    CREATE TABLE redemptions (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, "key" char(32) UNIQUE, status integer DEFAULT 1, name text, quota integer DEFAULT 100,
      created_time bigint, redeemed_time bigint);
    CREATE TABLE logs (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, created_at bigint, type integer, content text, username text DEFAULT '',
      token_name text DEFAULT '', model_name text DEFAULT '', quota integer DEFAULT 0, prompt_tokens integer DEFAULT 0, completion_tokens integer DEFAULT 0,
      channel_id integer, request_time integer DEFAULT 0, is_stream numeric DEFAULT false, metadata json);
  `);
  const now = Math.floor(Date.now() / 1000);
  const hash = bcrypt.hashSync('old-password1', 10);
  db.prepare(`INSERT INTO users (id, username, password, display_name, role, status, access_token, quota, "group", aff_code, created_time) VALUES
    (1, 'root', ?, 'Root User', 100, 1, '0123456789abcdef0123456789abcdef', 100000000, 'default', NULL, 0),
    (2, 'alice', ?, 'Alice', 1, 1, 'fedcba9876543210fedcba9876543210', 5000000, 'vip', 'aL1c', ?)`).run(hash, hash, now - 90 * DAY);
  db.prepare(`INSERT INTO users (id, username, password, deleted_at) VALUES (3, 'gone_del_abcdef', 'x', '2025-01-01 10:00:00')`).run();
  db.prepare(`INSERT INTO tokens (id, user_id, "key", name, created_time, accessed_time, unlimited_quota, setting, chat_cache) VALUES (7, 2, ?, 'old key', ?, ?, true, '{"heartbeat":{"enabled":false}}', 0)`).run(KEY, now, now);
  db.prepare(`INSERT INTO channels (id, type, "key", name, base_url, models, "group", test_model, config) VALUES (4, 1, 'sk-upstream-imported', 'imported', ?, 'imported-model', 'default,vip', 'imported-model', '{}')`).run(upstream);
  db.prepare(`INSERT INTO options ("key", value) VALUES ('SystemName', 'Moved Hub'), ('QuotaForNewUser', '42')`).run();
  db.prepare(`INSERT INTO prices (model, type, channel_type, input, output) VALUES ('imported-model', 'tokens', 1, 1, 2)`).run();
  db.prepare(`INSERT INTO user_groups (id, symbol, name, ratio, api_rate, public, enable) VALUES (1, 'default', '默认分组', 1, 600, true, true), (2, 'vip', 'vip分组', 0.8, 600, false, true), (7, 'team', '团队', 0.5, 300, false, true)`).run();
  db.prepare(`INSERT INTO redemptions (id, user_id, "key", name, quota, created_time) VALUES (1, 1, 'c0de0000c0de0000c0de0000c0de0000', 'gift', 1000, ?)`).run(now);
  const insertLog = db.prepare('INSERT INTO logs (user_id, created_at, type, content, username, model_name, quota, prompt_tokens, completion_tokens, channel_id, is_stream, metadata) VALUES (2, ?, 2, ?, \'alice\', \'imported-model\', 3, 1, 1, 4, false, NULL)');
  db.transaction(() => {
    for (let i = 0; i < logRows; i++) insertLog.run(now - (i % 2 ? 40 : 1) * DAY, `row ${i}`);
  })();
  db.close();
  return path;
}

describe.each(testDialects())('moving in from the original One Hub (SQLite source) into %s', (dialect) => {
  let f: RelayFixture;
  let source: string;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    source = originalDatabase(f.fake.url, 3000);
  });
  afterAll(async () => f?.close());

  const refresh = async () => {
    await f.server.ctx.options.load();
    await relayState(f.server.ctx).selector.reload();
    await relayState(f.server.ctx).groups.load();
    await f.server.ctx.store.publish(EVENTS.tokens, '');
  };

  it('a dry run reports what would change and writes nothing', async () => {
    const counts = await importDatabase(source, f.server.ctx.db, f.server.ctx.dialect, { dryRun: true, batch: 500 });
    const by = Object.fromEntries(counts.map((c) => [c.table, c]));
    expect(by.users).toMatchObject({ read: 3, inserted: 1, updated: 1, skipped: 1 });
    expect(by.tokens).toMatchObject({ inserted: 1, unmapped: ['chat_cache'] });
    expect(by.channels.unmapped).toEqual(['config']);
    expect(by.logs).toMatchObject({ read: 3000, inserted: 3000 });
    expect(by.orders.missing).toBe(true);
    expect(await f.server.ctx.db.selectFrom('users').select('id').where('username', '=', 'alice').execute()).toHaveLength(0);
  });

  it('imports in batches; the old password signs in and the old key relays a chat; a second run changes nothing', async () => {
    const started = Date.now();
    const progress: number[] = [];
    const counts = await importDatabase(source, f.server.ctx.db, f.server.ctx.dialect, { dryRun: false, batch: 500, logDays: 30, progress: (t, done) => t === 'logs' && progress.push(done) });
    const by = Object.fromEntries(counts.map((c) => [c.table, c]));
    expect(by.logs).toMatchObject({ read: 1500, inserted: 1500 });
    expect(progress).toEqual([500, 1000, 1500]);
    expect(by.user_groups).toMatchObject({ inserted: 1, updated: 1 });
    expect(by.options).toMatchObject({ inserted: 2 });
    console.log(`import: ${counts.reduce((n, c) => n + c.read, 0)} rows in ${Date.now() - started} ms`);
    const again = await importDatabase(source, f.server.ctx.db, f.server.ctx.dialect, { dryRun: false, batch: 500, logDays: 30 });
    for (const c of again.filter((c) => !c.missing)) expect([c.table, c.inserted, c.updated]).toEqual([c.table, 0, 0]);
    // The imported consumption rows are in both roll-ups, once (the second run added nothing).
    const day = new Date((Math.floor(Date.now() / 1000) - DAY) * 1000).toISOString().slice(0, 10);
    const rollup = await f.server.ctx.db.selectFrom('statistics').selectAll().where('user_id', '=', 2).execute();
    expect(rollup).toEqual([{ date: day, user_id: 2, channel_id: 4, model_name: 'imported-model', request_count: 1500, quota: 4500, prompt_tokens: 1500, completion_tokens: 1500, request_time: 0 }]);
    const totals = await f.server.ctx.db.selectFrom('statistics_totals').selectAll().where('model_name', '=', 'imported-model').execute();
    expect(totals).toEqual([{ date: day, channel_id: 4, model_name: 'imported-model', request_count: 1500, quota: 4500, prompt_tokens: 1500, completion_tokens: 1500, request_time: 0 }]);
    await refresh();

    const alice = new ApiClient(f.server.app);
    const self = await alice.login('alice', 'old-password1');
    expect(self).toMatchObject({ id: 2, username: 'alice' });
    expect(await f.server.ctx.db.selectFrom('users').select(['group', 'quota']).where('id', '=', 2).executeTakeFirst()).toMatchObject({ group: 'vip', quota: 5000000 });
    const root = new ApiClient(f.server.app);
    expect((await root.post('/api/user/login', { username: 'root', password: 'old-password1' })).body.success).toBe(true);

    const answer = await f.openai(`sk-${KEY}`).chat.completions.create({ model: 'imported-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBeTruthy();
    expect(f.fake.forKey('sk-upstream-imported')).toHaveLength(1);
    expect((await new ApiClient(f.server.app).get('/api/status')).body.data.system_name).toBe('Moved Hub');

  });
  it('takes one-api\'s ratio-based prices (ModelRatio, CompletionRatio) when the source has no price table', async () => {
    const oneApi = originalDatabase(f.fake.url, 0);
    const db = new Database(oneApi);
    db.exec('DROP TABLE prices');
    db.prepare(`INSERT INTO options ("key", value) VALUES ('ModelRatio', '{"ratio-model":1.5}'), ('CompletionRatio', '{"ratio-model":2}')`).run();
    db.close();
    const counts = await importDatabase(oneApi, f.server.ctx.db, f.server.ctx.dialect, { dryRun: false, batch: 500 });
    expect(counts.find((c) => c.table === 'prices (from ModelRatio/ModelPrice)')).toMatchObject({ read: 1, inserted: 1 });
    const row = await f.server.ctx.db.selectFrom('prices').selectAll().where('model', '=', 'ratio-model').executeTakeFirstOrThrow();
    expect([row.type, Number(row.input), Number(row.output)]).toEqual(['tokens', 1.5, 3]);
  });
});

describe('a server pointed at the original database', () => {
  /** The file's bytes and its directory's listing: refusing must leave both as they were. */
  const snapshot = (path: string) => ({ hash: createHash('sha256').update(readFileSync(path)).digest('hex'), files: readdirSync(dirname(path)).sort() });

  it('refuses to start on it, naming the importer, without touching it', async () => {
    const source = originalDatabase('http://127.0.0.1:9', 1);
    const before = snapshot(source);
    await expect(startTestServer('sqlite', { env: { SQLITE_PATH: source } })).rejects.toThrow(/npm run import -- --from/);
    expect(snapshot(source)).toEqual(before);
    expect(new Database(source, { readonly: true }).pragma('journal_mode', { simple: true })).toBe('delete');
  });

  it('leaves an original file already in WAL mode as it was too', async () => {
    const source = originalDatabase('http://127.0.0.1:9', 1);
    const wal = new Database(source);
    wal.pragma('journal_mode = WAL');
    wal.close();
    const before = snapshot(source);
    await expect(startTestServer('sqlite', { env: { SQLITE_PATH: source } })).rejects.toThrow(/npm run import -- --from/);
    expect(snapshot(source)).toEqual(before);
  });
});
