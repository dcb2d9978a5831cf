// The storage configurations `npm run bench` can load: SQLite, or PostgreSQL/MySQL with or without
// Redis, on one node or several sharing them, a node of several worker processes, and two proxies in
// the gateway's place: `floor`, the least Node proxy, and `nginx`.
// Each run gets a fresh database and Redis key prefix.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';

export interface Storage {
  /** As written in BENCH_STORAGE, e.g. `postgres+redis*2`. */
  name: string;
  dialect: 'sqlite' | 'postgres' | 'mysql';
  redis: boolean;
  nodes: number;
  /** Worker processes per node (`postgres+redis/2`: WORKERS=2). */
  workers: number;
  /** A proxy instead of the gateway (no storage at all): `floor` (bench/floor-proxy.ts) or `nginx` (bench/nginx.ts). */
  proxy: 'floor' | 'nginx' | null;
}

export const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_DSN = process.env.BENCH_MYSQL_DSN ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * `sqlite,postgres+redis,mysql+redis*2` → the configurations, in order; throws on a name it cannot read.
 * Whether a node of several workers can run on a storage is the gateway's to say (the bench skips
 * a configuration it refuses, with its reason), so `sqlite/2` reads.
 */
export function parseStorage(list: string): Storage[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      if (name === 'floor' || name === 'nginx') return { name, dialect: 'sqlite', redis: false, nodes: 1, workers: 1, proxy: name } satisfies Storage;
      const m = /^(sqlite|postgres|mysql)(\+redis)?(?:\*([1-9]))?(?:\/([1-9]))?$/.exec(name);
      if (!m) throw new Error(`BENCH_STORAGE: "${name}" is not sqlite, postgres or mysql (optionally with +redis, *<nodes> and /<workers per node>, 1-9), floor or nginx`);
      const storage: Storage = { name, dialect: m[1] as Storage['dialect'], redis: Boolean(m[2]), nodes: Number(m[3] ?? 1), workers: Number(m[4] ?? 1), proxy: null };
      if (storage.dialect === 'sqlite' && storage.nodes > 1) throw new Error(`BENCH_STORAGE: "${name}": several nodes need a shared database (postgres or mysql)`);
      return storage;
    });
}

/**
 * BENCH_WORKERS=1,2,4: each gateway configuration once per worker count (`sqlite` → `sqlite`,
 * `sqlite/2`, `sqlite/4`); one written with its own `/<workers>` and the proxies run as given.
 */
export function withWorkers(storages: Storage[], counts: number[] | undefined): Storage[] {
  if (!counts) return storages;
  return storages.flatMap((s) =>
    s.proxy || /\/\d$/.test(s.name) ? [s] : counts.map((workers) => ({ ...s, workers, name: workers === 1 ? s.name : `${s.name}/${workers}` })),
  );
}

export interface Provisioned {
  /** Environment every gateway node of the run gets (SQL_DSN, REDIS_CONN_STRING, REDIS_KEY_PREFIX). */
  env: Record<string, string>;
  /** Drops the database and the Redis keys; call once the nodes have stopped. */
  drop(): Promise<void>;
}

/** A fresh, empty database (and Redis key prefix) for one configuration's run. */
export async function provision(storage: Storage): Promise<Provisioned> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const env: Record<string, string> = { SQL_DSN: '' };
  const drops: Array<() => Promise<void>> = [];
  if (storage.dialect === 'postgres') {
    await onPostgres(`CREATE DATABASE ${name}`);
    drops.push(() => onPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    env.SQL_DSN = withDatabase(POSTGRES_DSN, name);
  }
  if (storage.dialect === 'mysql') {
    await onMysql(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    drops.push(() => onMysql(`DROP DATABASE IF EXISTS ${name}`));
    env.SQL_DSN = withDatabase(MYSQL_DSN, name);
  }
  if (storage.redis) {
    env.REDIS_CONN_STRING = REDIS_URL;
    env.REDIS_KEY_PREFIX = `${name}:`;
    drops.push(() => dropRedisKeys(`${name}:`));
  }
  return {
    env,
    async drop() {
      for (const d of drops) await d().catch((e) => console.error(`bench clean-up failed: ${String(e)}`));
    },
  };
}

function withDatabase(dsn: string, database: string): string {
  const url = new URL(dsn);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_DSN });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function onMysql(statement: string): Promise<void> {
  const conn = await mysql.createConnection(MYSQL_DSN);
  try {
    await conn.query(statement);
  } finally {
    await conn.end();
  }
}

async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
