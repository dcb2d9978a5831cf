import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { randomAlnum } from '../../src/common/random.js';
import type { TestDialect } from '../harness.js';

/**
 * A database in an original project's schema (gorm's tables and columns), built by a test on any
 * dialect in its own database, as One Hub (Go) or new-api lays it out.
 */
export type Flavour = 'one-hub' | 'new-api';

type Row = Record<string, unknown>;

interface Types {
  id: string;
  bool: string;
  time: string;
  json: string;
  q: (name: string) => string;
}

const TYPES: Record<TestDialect, Types> = {
  sqlite: { id: 'integer PRIMARY KEY AUTOINCREMENT', bool: 'numeric', time: 'datetime', json: 'json', q: (n) => `"${n}"` },
  postgres: { id: 'bigserial PRIMARY KEY', bool: 'boolean', time: 'timestamptz', json: 'json', q: (n) => `"${n}"` },
  mysql: { id: 'bigint AUTO_INCREMENT PRIMARY KEY', bool: 'tinyint(1)', time: 'datetime(3)', json: 'json', q: (n) => `\`${n}\`` },
};

function ddl(flavour: Flavour, t: Types): string[] {
  const { id, bool, time, json, q } = t;
  const common = [
    `CREATE TABLE options (${q('key')} varchar(191) PRIMARY KEY, value text)`,
  ];
  if (flavour === 'one-hub') {
    return [
      ...common,
      `CREATE TABLE users (id ${id}, username varchar(191) UNIQUE, password text NOT NULL, display_name text, role bigint DEFAULT 1, status bigint DEFAULT 1, email varchar(191),
        access_token char(32) UNIQUE, quota bigint DEFAULT 0, used_quota bigint DEFAULT 0, request_count bigint DEFAULT 0, ${q('group')} varchar(32) DEFAULT 'default',
        aff_code varchar(32) UNIQUE, inviter_id bigint, created_time bigint, deleted_at ${time})`,
      `CREATE TABLE tokens (id ${id}, user_id bigint, ${q('key')} varchar(59) UNIQUE, status bigint DEFAULT 1, name text, created_time bigint, accessed_time bigint,
        expired_time bigint DEFAULT -1, remain_quota bigint DEFAULT 0, unlimited_quota ${bool} DEFAULT false, used_quota bigint DEFAULT 0, ${q('group')} varchar(32) DEFAULT '',
        setting ${json}, chat_cache ${bool}, deleted_at ${time})`,
      `CREATE TABLE channels (id ${id}, type bigint DEFAULT 0, ${q('key')} text, status bigint DEFAULT 1, name varchar(191), weight bigint DEFAULT 1, created_time bigint,
        base_url text, other text, models text, ${q('group')} varchar(32) DEFAULT 'default', used_quota bigint DEFAULT 0, model_mapping text, priority bigint DEFAULT 0,
        test_model varchar(50) DEFAULT '', only_chat ${bool} DEFAULT false, config text, deleted_at ${time})`,
      `CREATE TABLE prices (model varchar(191) PRIMARY KEY, type varchar(16) DEFAULT 'tokens', channel_type bigint DEFAULT 0, input decimal(10,4) DEFAULT 0,
        output decimal(10,4) DEFAULT 0, locked ${bool} DEFAULT false)`,
      `CREATE TABLE user_groups (id ${id}, symbol varchar(50) UNIQUE, name varchar(50), ratio decimal(10,2) DEFAULT 1, api_rate bigint DEFAULT 600,
        public ${bool} DEFAULT false, promotion ${bool} DEFAULT false, min bigint DEFAULT 0, max bigint DEFAULT 0, enable ${bool} DEFAULT true)`,
      `CREATE TABLE redemptions (id ${id}, user_id bigint, ${q('key')} char(32) UNIQUE, status bigint DEFAULT 1, name varchar(191), quota bigint DEFAULT 100,
        created_time bigint, redeemed_time bigint)`,
      `CREATE TABLE logs (id ${id}, user_id bigint, created_at bigint, type bigint, content text, username varchar(191) DEFAULT '', token_name varchar(191) DEFAULT '',
        model_name varchar(191) DEFAULT '', quota bigint DEFAULT 0, prompt_tokens bigint DEFAULT 0, completion_tokens bigint DEFAULT 0, channel_id bigint,
        request_time bigint DEFAULT 0, is_stream ${bool} DEFAULT false, metadata ${json})`,
    ];
  }
  // new-api (QuantumNous/new-api): no price or group table (ratios live in options), logs with
  // use_time in seconds and ip, top-ups in top_ups.
  return [
    ...common,
    `CREATE TABLE users (id ${id}, username varchar(191) UNIQUE, password text NOT NULL, display_name varchar(191), role bigint DEFAULT 1, status bigint DEFAULT 1,
      email varchar(191), github_id varchar(191), oidc_id varchar(191), wechat_id varchar(191), telegram_id varchar(191), access_token char(32) UNIQUE,
      quota bigint DEFAULT 0, used_quota bigint DEFAULT 0, request_count bigint DEFAULT 0, ${q('group')} varchar(64) DEFAULT 'default', aff_code varchar(32) UNIQUE,
      aff_count bigint DEFAULT 0, aff_quota bigint DEFAULT 0, aff_history bigint DEFAULT 0, inviter_id bigint, setting text, remark varchar(255),
      stripe_customer varchar(64), deleted_at ${time})`,
    `CREATE TABLE tokens (id ${id}, user_id bigint, ${q('key')} char(48) UNIQUE, status bigint DEFAULT 1, name varchar(191), created_time bigint, accessed_time bigint,
      expired_time bigint DEFAULT -1, remain_quota bigint DEFAULT 0, unlimited_quota ${bool}, model_limits_enabled ${bool}, model_limits text,
      allow_ips text, used_quota bigint DEFAULT 0, ${q('group')} varchar(64) DEFAULT '', cross_group_retry ${bool}, deleted_at ${time})`,
    `CREATE TABLE channels (id ${id}, type bigint DEFAULT 0, ${q('key')} text NOT NULL, open_ai_organization text, test_model text, status bigint DEFAULT 1,
      name varchar(191), weight bigint DEFAULT 0, created_time bigint, test_time bigint, response_time bigint, base_url text, other text, balance double precision,
      balance_updated_time bigint, models text, ${q('group')} varchar(64) DEFAULT 'default', used_quota bigint DEFAULT 0, model_mapping text,
      status_code_mapping varchar(1024) DEFAULT '', priority bigint DEFAULT 0, auto_ban bigint DEFAULT 1, other_info text, tag varchar(191), setting text,
      param_override text, header_override text, remark varchar(255), channel_info ${json}, settings text)`,
    `CREATE TABLE redemptions (id ${id}, user_id bigint, ${q('key')} char(32) UNIQUE, status bigint DEFAULT 1, name varchar(191), quota bigint DEFAULT 100,
      created_time bigint, redeemed_time bigint, used_user_id bigint, deleted_at ${time}, expired_time bigint)`,
    `CREATE TABLE logs (id ${id}, user_id bigint, created_at bigint, type bigint, content text, username varchar(191) DEFAULT '', token_name varchar(191) DEFAULT '',
      model_name varchar(191) DEFAULT '', quota bigint DEFAULT 0, prompt_tokens bigint DEFAULT 0, completion_tokens bigint DEFAULT 0, use_time bigint DEFAULT 0,
      is_stream ${bool}, channel_id bigint, token_id bigint DEFAULT 0, ${q('group')} varchar(64), ip varchar(64) DEFAULT '', other text)`,
    `CREATE TABLE top_ups (id ${id}, user_id bigint, amount bigint, money double precision, trade_no varchar(255) UNIQUE, payment_method varchar(50),
      payment_provider varchar(50) DEFAULT '', create_time bigint, complete_time bigint, status text)`,
    `CREATE TABLE abilities (${q('group')} varchar(64), model varchar(191), channel_id bigint, enabled ${bool}, priority bigint DEFAULT 0, weight bigint DEFAULT 0, tag varchar(191))`,
  ];
}

export interface OriginalDb {
  /** What `npm run import -- --from` takes for it. */
  dsn: string;
  insert(table: string, rows: Row[]): Promise<void>;
  exec(text: string): Promise<void>;
  drop(): Promise<void>;
}

/** An empty database in the original's schema, on the dialect of `dialect`, in a database of its own. */
export async function originalDb(dialect: TestDialect, flavour: Flavour): Promise<OriginalDb> {
  const t = TYPES[dialect];
  const name = `src_${randomAlnum(10).toLowerCase()}`;
  let run: (text: string, args?: unknown[]) => Promise<void>;
  let close: () => Promise<void>;
  let dsn: string;
  let param: (i: number) => string = () => '?';
  let dropDb = async () => {};
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_DSN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.TEST_POSTGRES_DSN!);
    url.pathname = `/${name}`;
    dsn = url.toString();
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    run = async (text, args) => void (await client.query(text, args));
    close = () => client.end();
    param = (i) => `$${i}`;
    dropDb = async () => {
      const a = new pg.Client({ connectionString: process.env.TEST_POSTGRES_DSN });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name}`);
      await a.end();
    };
  } else if (dialect === 'mysql') {
    const url = new URL(process.env.TEST_MYSQL_DSN!);
    const conn = await mysql.createConnection(process.env.TEST_MYSQL_DSN!);
    await conn.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    await conn.query(`USE ${name}`);
    // The Go driver's form, as the original's SQL_DSN is written.
    const auth = url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : decodeURIComponent(url.username);
    dsn = `${auth}@tcp(${url.hostname}:${url.port || 3306})/${name}?charset=utf8mb4&parseTime=True&loc=Local`;
    run = async (text, args) => void (await conn.query(text, args));
    close = () => conn.end();
    dropDb = async () => {
      const c = await mysql.createConnection(process.env.TEST_MYSQL_DSN!);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    };
  } else {
    dsn = join(mkdtempSync(join(tmpdir(), 'onehub-go-')), 'one-api.db');
    const db = new Database(dsn);
    run = async (text, args) => void (args ? db.prepare(text).run(...args.map((a) => (typeof a === 'boolean' ? Number(a) : a instanceof Date ? a.toISOString() : a))) : db.exec(text));
    close = async () => void db.close();
  }
  for (const statement of ddl(flavour, t)) await run(statement);
  return {
    dsn,
    exec: (text) => run(text),
    async insert(table, rows) {
      if (!rows.length) return;
      const columns = Object.keys(rows[0]);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const args: unknown[] = [];
        const tuples = chunk.map((r) => `(${columns.map((c) => (args.push(r[c] ?? null), param(args.length))).join(', ')})`);
        await run(`INSERT INTO ${t.q(table)} (${columns.map(t.q).join(', ')}) VALUES ${tuples.join(', ')}`, args);
      }
    },
    async drop() {
      await close();
      await dropDb();
    },
  };
}
