// A big database for the bench and the query-plan tests: users, tokens, channels and log rows over
// many days, with the daily roll-up (`statistics`, and its totals) summed from those very log rows.
import { CompiledQuery, sql } from 'kysely';
import bcrypt from 'bcryptjs';
import type { Db } from '../src/db/index.js';
import { sqliteHandle } from '../src/db/index.js';
import { dialectOf } from '../src/db/helpers.js';
import { prng } from './prng.js';
import { fillStatisticsTotals } from '../src/db/migrations/0019_statistics_totals.js';

export interface SeedSize {
  users: number;
  tokens: number;
  channels: number;
  logs: number;
  /** Log rows spread evenly over this many days ending now. */
  days: number;
  /** End of the time range (epoch seconds); now by default. */
  now?: number;
}

export const BIG_SIZE: SeedSize = { users: 5_000, tokens: 50_000, channels: 200, logs: 2_000_000, days: 90 };

/** Every seeded user's password (they can sign in to the console). */
export const SEED_PASSWORD = 'bench-user-password';

export const SEED_MODELS = Array.from({ length: 20 }, (_, i) => `bench-model-${String(i).padStart(2, '0')}`);

export const seedUsername = (i: number) => `bench-user-${i}`;
/** Token names repeat across users, as real ones do ("default", "app-3"…). */
export const seedTokenName = (j: number) => `app-${j % 1000}`;
/** A 48-character key, unique per token. */
export const seedTokenKey = (j: number) => `bench${String(j).padStart(10, '0')}`.padEnd(48, 'k');

type Dialect = 'sqlite' | 'postgres' | 'mysql';

/** Column names, `:s` marking text columns (the others are integers). */
type Columns = string[];

/**
 * Writes `count` rows in big statements: on PostgreSQL one array per column through unnest (no
 * per-value placeholders to parse), elsewhere multi-row VALUES (one transaction per batch on SQLite).
 */
async function insertMany(db: Db, d: Dialect, table: string, spec: Columns, count: number, row: (i: number, out: unknown[]) => void): Promise<void> {
  const columns = spec.map((c) => c.replace(/:s$/, ''));
  const q = (c: string) => (d === 'mysql' ? `\`${c}\`` : `"${c}"`);
  const head = `INSERT INTO ${table} (${columns.map(q).join(', ')}) `;
  const width = columns.length;
  const out: unknown[] = new Array(width);
  if (d === 'postgres') {
    const text = head + `SELECT * FROM unnest(${spec.map((c, k) => `$${k + 1}::${c.endsWith(':s') ? 'text' : 'bigint'}[]`).join(', ')})`;
    for (let i = 0; i < count; i += 20_000) {
      const n = Math.min(20_000, count - i);
      const arrays = columns.map(() => new Array<unknown>(n));
      for (let r = 0; r < n; r++) {
        row(i + r, out);
        for (let c = 0; c < width; c++) arrays[c][r] = out[c];
      }
      await db.executeQuery(CompiledQuery.raw(text, arrays));
    }
    return;
  }
  const perStatement = d === 'sqlite' ? 100 : 2_000;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const text = (rows: number) => head + 'VALUES ' + Array.from({ length: rows }, () => tuple).join(', ');
  const full = text(perStatement);
  const raw = sqliteHandle(db);
  if (raw) {
    const stmt = raw.prepare(full);
    const write = raw.transaction((from: number, to: number) => {
      const params: unknown[] = [];
      for (let i = from; i < to; i++) {
        row(i, out);
        params.push(...out);
        if (params.length === perStatement * width) stmt.run(params.splice(0));
      }
      if (params.length) raw.prepare(text(params.length / width)).run(params);
    });
    for (let i = 0; i < count; i += 50_000) write(i, Math.min(count, i + 50_000));
    return;
  }
  for (let i = 0; i < count; i += perStatement) {
    const n = Math.min(perStatement, count - i);
    const params: unknown[] = new Array(n * width);
    for (let r = 0; r < n; r++) {
      row(i + r, out);
      for (let c = 0; c < width; c++) params[r * width + c] = out[c];
    }
    await db.executeQuery(CompiledQuery.raw(n === perStatement ? full : text(n), params));
  }
}

/**
 * Runs `load` with the table's secondary indexes dropped and builds them again after: a sorted
 * build is many times faster than two million random index insertions (text keys compare slowly).
 */
async function withoutIndexes(db: Db, d: Dialect, table: string, load: () => Promise<void>): Promise<void> {
  const run = (text: string, params: unknown[] = []) => db.executeQuery(CompiledQuery.raw(text, params));
  let rebuild: string[] = [];
  if (d === 'sqlite') {
    const rows = (await run(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, [table])).rows as Array<{ name: string; sql: string }>;
    for (const r of rows) await run(`DROP INDEX "${r.name}"`);
    rebuild = rows.map((r) => r.sql);
  } else if (d === 'postgres') {
    const rows = (
      await run(
        `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i WHERE i.tablename = $1 AND i.schemaname = current_schema() ` +
          `AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [table],
      )
    ).rows as Array<{ name: string; sql: string }>;
    for (const r of rows) await run(`DROP INDEX "${r.name}"`);
    rebuild = rows.map((r) => r.sql);
  } else {
    const rows = (
      await run(
        `SELECT index_name AS name, non_unique AS nu, group_concat(concat('\`', column_name, '\`') ORDER BY seq_in_index) AS cols ` +
          `FROM information_schema.statistics WHERE table_schema = database() AND table_name = ? AND index_name <> 'PRIMARY' GROUP BY index_name, non_unique`,
        [table],
      )
    ).rows as Array<{ name: string; nu: number; cols: string }>;
    if (rows.length) await run(`ALTER TABLE ${table} ${rows.map((r) => `DROP INDEX \`${r.name}\``).join(', ')}`);
    if (rows.length) rebuild = [`ALTER TABLE ${table} ${rows.map((r) => `ADD ${Number(r.nu) ? '' : 'UNIQUE '}INDEX \`${r.name}\` (${r.cols})`).join(', ')}`];
  }
  try {
    await load();
  } finally {
    for (const text of rebuild) await run(text);
  }
}

/** Ids of the rows just seeded, in seeding order (keyed by the unique text each was given). */
async function idsOf(db: Db, table: 'users' | 'tokens' | 'channels', column: 'username' | 'key' | 'name', names: string[], prefix: string): Promise<number[]> {
  const rows = await db
    .selectFrom(table)
    .select(['id', sql<string>`${sql.ref(column)}`.as('name')])
    .where(sql.ref(column), 'like', `${prefix}%`)
    .execute();
  const byName = new Map(rows.map((r) => [r.name, Number(r.id)]));
  return names.map((n) => byName.get(n)!);
}

export interface SeedResult {
  userIds: number[];
  tokenIds: number[];
  channelIds: number[];
  /** Time range of the log rows (epoch seconds). */
  from: number;
  to: number;
}

/**
 * Seeds a migrated database: `users` users (password SEED_PASSWORD), `tokens` unlimited tokens spread
 * over them, `channels` OpenAI channels (no base URL: point them at a fake before relaying), and `logs`
 * log rows over `days` days (90 % consumption, the rest top-up, manage, system and error rows), with
 * the daily roll-up summed from the consumption rows. Rows are added to what is there.
 */
export async function seedBig(db: Db, size: SeedSize, progress: (step: string) => void = () => {}): Promise<SeedResult> {
  const t0 = Date.now();
  const step = (name: string) => progress(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const d = dialectOf(db);
  const now = size.now ?? Math.floor(Date.now() / 1000);
  const from = now - size.days * 86_400 + 1;
  const rnd = prng(size.logs ^ size.users);
  const hash = await bcrypt.hash(SEED_PASSWORD, 8);

  const usernames = Array.from({ length: size.users }, (_, i) => seedUsername(i));
  await insertMany(db, d, 'users', ['username:s', 'password:s', 'display_name:s', 'role', 'status', 'quota', 'group:s', 'aff_code:s', 'created_time'], size.users, (i, o) => {
    o[0] = usernames[i];
    o[1] = hash;
    o[2] = usernames[i];
    o[3] = 1;
    o[4] = 1;
    o[5] = 1_000_000_000;
    o[6] = 'default';
    o[7] = `bench${i}`;
    o[8] = from + Math.floor((i / size.users) * (now - from));
  });
  step('users');
  const userIds = await idsOf(db, 'users', 'username', usernames, 'bench-user-');

  const keys = Array.from({ length: size.tokens }, (_, j) => seedTokenKey(j));
  await insertMany(db, d, 'tokens', ['user_id', 'key:s', 'status', 'name:s', 'created_time', 'expired_time', 'remain_quota', 'unlimited_quota', 'group:s'], size.tokens, (j, o) => {
    o[0] = userIds[j % size.users];
    o[1] = keys[j];
    o[2] = 1;
    o[3] = seedTokenName(j);
    o[4] = from;
    o[5] = -1;
    o[6] = 0;
    o[7] = 1;
    o[8] = '';
  });
  step('tokens');
  const tokenIds = await idsOf(db, 'tokens', 'key', keys, 'bench');

  const channelNames = Array.from({ length: size.channels }, (_, c) => `bench-channel-${c}`);
  const modelsOf = (c: number) => Array.from({ length: 5 }, (_, k) => SEED_MODELS[(c + k * 4) % SEED_MODELS.length]);
  await insertMany(db, d, 'channels', ['type', 'key:s', 'status', 'name:s', 'created_time', 'models:s', 'group:s', 'priority', 'weight'], size.channels, (c, o) => {
    o[0] = 1;
    o[1] = `sk-bench-${c}`;
    o[2] = 1;
    o[3] = channelNames[c];
    o[4] = from;
    o[5] = modelsOf(c).join(',');
    o[6] = 'default';
    o[7] = 0;
    o[8] = 1;
  });
  step('channels');
  const channelIds = await idsOf(db, 'channels', 'name', channelNames, 'bench-channel-');

  const tokensPerUser = Math.max(1, Math.floor(size.tokens / size.users));
  const span = now - from;
  const LOG_COLS = ['user_id', 'created_at', 'type', 'content:s', 'username:s', 'token_name:s', 'token_id', 'model_name:s', 'quota', 'prompt_tokens', 'completion_tokens', 'channel_id', 'request_time', 'is_stream', 'source_ip:s', 'group:s'];
  const logRow = (i: number, o: unknown[]) => {
    // A few users and models carry most of the traffic, as in real installs.
    const u = Math.floor(size.users * rnd() ** 3);
    const j = u + size.users * Math.floor(rnd() * tokensPerUser);
    const m = Math.floor(SEED_MODELS.length * rnd() ** 2);
    const c = (Math.floor(rnd() * Math.ceil(size.channels / 4)) * 4 + (m % 4)) % size.channels;
    const roll = rnd();
    const type = roll < 0.9 ? 2 : roll < 0.94 ? 5 : roll < 0.97 ? 1 : roll < 0.99 ? 3 : 4;
    const prompt = type === 2 ? 50 + Math.floor(rnd() * 4000) : 0;
    const completion = type === 2 ? 10 + Math.floor(rnd() * 2000) : 0;
    o[0] = userIds[u];
    o[1] = from + Math.floor((i * span) / size.logs);
    o[2] = type;
    o[3] = type === 2 ? '' : type === 5 ? 'upstream said: 429 too many requests' : `bench ${type} row`;
    o[4] = usernames[u];
    o[5] = type === 2 || type === 5 ? seedTokenName(j % size.tokens) : '';
    o[6] = type === 2 || type === 5 ? tokenIds[j % size.tokens] : 0;
    o[7] = type === 2 || type === 5 ? SEED_MODELS[m] : '';
    o[8] = type === 2 ? prompt + completion * 2 : type === 1 ? 500_000 : 0;
    o[9] = prompt;
    o[10] = completion;
    o[11] = type === 2 || type === 5 ? channelIds[c] : 0;
    o[12] = type === 2 ? 200 + Math.floor(rnd() * 20_000) : 0;
    o[13] = rnd() < 0.6 ? 1 : 0;
    o[14] = `10.${u % 256}.${(u >> 8) % 256}.${1 + (i % 250)}`;
    o[15] = 'default';
  };

  // The roll-up of exactly these rows, summed here per UTC day (as the recorder does) and written
  // once a day is complete: rows come in time order, so only a day or two is ever held.
  const rollup = new Map<string, number[]>();
  const add = (o: unknown[]) => {
    const key = `${new Date((o[1] as number) * 1000).toISOString().slice(0, 10)}|${o[0]}|${o[11]}|${o[7]}`;
    const sums = rollup.get(key) ?? [0, 0, 0, 0, 0];
    sums[0] += 1;
    sums[1] += o[8] as number;
    sums[2] += o[9] as number;
    sums[3] += o[10] as number;
    sums[4] += o[12] as number;
    rollup.set(key, sums);
  };
  const STAT_COLS = ['date:s', 'user_id', 'channel_id', 'model_name:s', 'request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'];
  const writeDaysBefore = async (day: string) => {
    const done = [...rollup.keys()].filter((key) => key < day);
    await insertMany(db, d, 'statistics', STAT_COLS, done.length, (k, o) => {
      const [date, user, channel, model] = done[k].split('|');
      const sums = rollup.get(done[k])!;
      o[0] = date;
      o[1] = Number(user);
      o[2] = Number(channel);
      o[3] = model;
      for (let c = 0; c < 5; c++) o[4 + c] = sums[c];
    });
    for (const key of done) rollup.delete(key);
  };
  const CHUNK = 50_000;
  const both = (load: () => Promise<void>) => withoutIndexes(db, d, 'logs', () => withoutIndexes(db, d, 'statistics', load));
  await both(async () => {
    for (let first = 0; first < size.logs; first += CHUNK) {
      const count = Math.min(CHUNK, size.logs - first);
      let lastAt = from;
      await insertMany(db, d, 'logs', LOG_COLS, count, (k, o) => {
        logRow(first + k, o);
        lastAt = o[1] as number;
        if (o[2] === 2) add(o);
      });
      await writeDaysBefore(first + count < size.logs ? new Date(lastAt * 1000).toISOString().slice(0, 10) : '9999');
    }
  });
  await fillStatisticsTotals(db);
  step('logs and roll-up');
  if (d === 'sqlite') await db.executeQuery(CompiledQuery.raw('PRAGMA analysis_limit = 1000'));
  // PostgreSQL: VACUUM also sets the visibility map, so counts read the indexes alone (autovacuum does this on a live install).
  if (d !== 'mysql') await db.executeQuery(CompiledQuery.raw(d === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE logs, statistics, statistics_totals'));
  else await db.executeQuery(CompiledQuery.raw('ANALYZE TABLE logs, statistics, statistics_totals'));
  step('analyze');
  return { userIds, tokenIds, channelIds, from, to: now };
}
