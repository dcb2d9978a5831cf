/**
 * Import speed: a One Hub (Go) log table of N rows (default 1 000 000) in PostgreSQL, copied into a
 * fresh One Hub database on the same server. Not part of the tests (minutes of work):
 *   TEST_POSTGRES_DSN=postgres://postgres@127.0.0.1:5432/test npx tsx bench/import.ts [rows]
 */
import pg from 'pg';
import { migrate, openDb } from '../src/db/index.js';
import { importDatabase } from '../src/import/run.js';

const admin = process.env.TEST_POSTGRES_DSN;
if (!admin) throw new Error('set TEST_POSTGRES_DSN');
const rows = Number(process.argv[2] ?? 1_000_000);
const suffix = Math.random().toString(36).slice(2, 8);
const urlOf = (db: string) => Object.assign(new URL(admin), { pathname: `/${db}` }).toString();

async function sql(url: string, ...statements: string[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

const source = `bench_src_${suffix}`;
const target = `bench_dst_${suffix}`;
await sql(admin, `CREATE DATABASE ${source}`, `CREATE DATABASE ${target}`);
try {
  const now = Math.floor(Date.now() / 1000);
  await sql(
    urlOf(source),
    `CREATE TABLE logs (id bigserial PRIMARY KEY, user_id bigint, created_at bigint, type bigint, content text, username text DEFAULT '', token_name text DEFAULT '',
      model_name text DEFAULT '', quota bigint DEFAULT 0, prompt_tokens bigint DEFAULT 0, completion_tokens bigint DEFAULT 0, channel_id bigint,
      request_time bigint DEFAULT 0, is_stream boolean DEFAULT false, metadata json)`,
    `INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, request_time, is_stream)
      SELECT 1 + i % 50, ${now} - i % 2592000, 2, '模型倍率 1.00，分组倍率 1.00', 'user' || (i % 50), 'key', 'gpt-4o-mini', 120 + i % 500, 40 + i % 900, 20 + i % 300, 1 + i % 5, 800 + i % 4000, i % 3 = 0
      FROM generate_series(1, ${rows}) AS i`,
  );
  const handle = await openDb({ dsn: urlOf(target), sqlitePath: '' });
  try {
    await migrate(handle.db);
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const counts = await importDatabase(urlOf(source), handle.db, handle.dialect, { dryRun: false, batch: 1000 });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    const logs = counts.find((c) => c.table === 'logs')!;
    console.log(`${logs.inserted} log rows in ${seconds.toFixed(1)} s: ${Math.round(logs.inserted / seconds)} rows/s (importer CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)`);
  } finally {
    await handle.close();
  }
} finally {
  await sql(admin, `DROP DATABASE IF EXISTS ${source}`, `DROP DATABASE IF EXISTS ${target}`);
}
