import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig } from '../src/config/env.js';
import { createServer, type Running } from '../src/bootstrap.js';
import { randomAlnum } from '../src/common/random.js';

export type TestDialect = 'sqlite' | 'postgres' | 'mysql';

export const ROOT_PASSWORD = 'root-password-123';

const PG_DSN = process.env.TEST_POSTGRES_DSN;
const MYSQL_DSN = process.env.TEST_MYSQL_DSN;
export const REDIS_URL = process.env.TEST_REDIS_CONN_STRING;

const skipped = new Set<string>();
function warnOnce(message: string) {
  if (skipped.has(message)) return;
  skipped.add(message);
  console.warn(message);
}

/** SQLite always; PostgreSQL and MySQL when their env is set (CI sets both). Prints why one is left out. */
export function testDialects(): TestDialect[] {
  const list: TestDialect[] = ['sqlite'];
  if (PG_DSN) list.push('postgres');
  else warnOnce('skipping PostgreSQL runs: TEST_POSTGRES_DSN is not set');
  if (MYSQL_DSN) list.push('mysql');
  else warnOnce('skipping MySQL runs: TEST_MYSQL_DSN is not set');
  return list;
}

export function redisAvailable(): boolean {
  if (!REDIS_URL) warnOnce('skipping Redis runs: TEST_REDIS_CONN_STRING is not set');
  return Boolean(REDIS_URL);
}

export interface TestServer extends Running {
  dialect: TestDialect;
  env: Record<string, string>;
  /** Starts listening on a random port and answers the base URL (for SDK clients). */
  listen(): Promise<string>;
  /** Stops the server and drops the test database. */
  destroy(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  redis?: boolean;
  /** Reuse the database of an earlier server (restart tests). */
  reuse?: TestServer;
  /** FetchAllowPrivateNetworks; on by default, since the fakes listen on loopback. */
  privateNetworks?: boolean;
}

/** A full server on a fresh, isolated database of the chosen dialect. */
export async function startTestServer(dialect: TestDialect, opts: TestServerOptions = {}): Promise<TestServer> {
  const env = opts.reuse ? { ...opts.reuse.env } : await provision(dialect);
  if (opts.redis && REDIS_URL) {
    env.REDIS_CONN_STRING = REDIS_URL;
    env.REDIS_KEY_PREFIX ||= `test:${randomAlnum(8)}:`;
  }
  Object.assign(env, opts.env);
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    GLOBAL_API_RATE_LIMIT: '0',
    CRITICAL_RATE_LIMIT: '0',
    ...env,
  });
  let running: Running;
  try {
    running = await createServer(config, { pgSchema: env.PG_SCHEMA, webDist: env.WEB_DIST });
    await running.ctx.options.save({ FetchAllowPrivateNetworks: String(opts.privateNetworks ?? true) });
  } catch (error) {
    if (!opts.reuse) await drop(dialect, env);
    throw error;
  }
  const server: TestServer = {
    ...running,
    dialect,
    env,
    async listen() {
      const address = await running.app.listen({ port: 0, host: '127.0.0.1' });
      return address;
    },
    async destroy() {
      await running.close();
      await drop(dialect, env);
    },
  };
  return server;
}

async function provision(dialect: TestDialect): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-test-'));
  const base = { DATA_DIR: dir, SQLITE_PATH: join(dir, 'one-hub.db'), TMP_DIR: dir };
  const name = `t_${randomAlnum(10).toLowerCase()}`;
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: PG_DSN });
    await client.connect();
    await client.query(`CREATE SCHEMA ${name}`);
    await client.end();
    return { ...base, SQL_DSN: PG_DSN!, PG_SCHEMA: name };
  }
  if (dialect === 'mysql') {
    const conn = await mysql.createConnection(MYSQL_DSN!);
    await conn.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    await conn.end();
    const url = new URL(MYSQL_DSN!);
    url.pathname = `/${name}`;
    return { ...base, SQL_DSN: url.toString(), MYSQL_DB: name };
  }
  return base;
}

async function drop(dialect: TestDialect, env: Record<string, string>) {
  if (dialect === 'postgres' && env.PG_SCHEMA) {
    const client = new pg.Client({ connectionString: PG_DSN });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${env.PG_SCHEMA} CASCADE`);
    await client.end();
  }
  if (dialect === 'mysql' && env.MYSQL_DB) {
    const conn = await mysql.createConnection(MYSQL_DSN!);
    await conn.query(`DROP DATABASE IF EXISTS ${env.MYSQL_DB}`);
    await conn.end();
  }
  if (env.TMP_DIR) rmSync(env.TMP_DIR, { recursive: true, force: true });
}

/** A cookie-keeping client over app.inject, for console API tests. */
export class ApiClient {
  private cookie = '';
  constructor(private readonly app: FastifyInstance) {}

  async request(method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      method,
      url,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
    });
    const setCookie = res.headers['set-cookie'];
    if (setCookie) {
      const first = (Array.isArray(setCookie) ? setCookie : [setCookie]).find((c) => c.startsWith('session='));
      if (first) this.cookie = first.split(';')[0].endsWith('=') ? '' : first.split(';')[0];
    }
    let json: any;
    try {
      json = res.json();
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, body: json, raw: res };
  }

  /** The same signed-in session against another server (restart tests). */
  withApp(app: FastifyInstance): ApiClient {
    const copy = new ApiClient(app);
    copy.cookie = this.cookie;
    return copy;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body ?? {}, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', url, body ?? {}, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);

  async login(username: string, password: string) {
    const res = await this.post('/api/user/login', { username, password });
    if (!res.body?.success) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }
}
