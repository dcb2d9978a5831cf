import type BetterSqlite3 from 'better-sqlite3';
import type { NewLog } from './logs.js';
import type { LogsTable } from '../schema.js';
import { STAT_KEYS, STAT_SUMS, TOTAL_KEYS, totalsOf, type StatRow } from './rollup-rows.js';
import type { TokenDelta, UserDelta } from './quota.js';
import { LEASE_KIND, type LeaseSpend } from './quota-leases.js';
import { asWaitingWriter } from '../sqlite-dialect.js';

const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function statement(raw: BetterSqlite3.Database, key: string, text: () => string): BetterSqlite3.Statement {
  let byKey = cache.get(raw);
  if (!byKey) cache.set(raw, (byKey = new Map()));
  let s = byKey.get(key);
  if (!s) byKey.set(key, (s = raw.prepare(text())));
  return s;
}

/** Every column a log row may carry, with what the table gives an absent one (0, '' or NULL, as migration 0001 declares). */
export const LOG_DEFAULTS: { [K in Exclude<keyof LogsTable, 'id'>]-?: number | string | null } = {
  user_id: 0,
  created_at: 0,
  type: 0,
  content: null,
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  channel_id: 0,
  request_time: 0,
  is_stream: 0,
  source_ip: '',
  group: '',
  request_id: '',
  estimated: 0,
  metadata: null,
};
export const LOG_COLUMNS = Object.keys(LOG_DEFAULTS) as Array<keyof typeof LOG_DEFAULTS>;

const D = LOG_DEFAULTS;

/** A row's values in LOG_COLUMNS order, absent ones their defaults; plain property reads (a keyed loop over the names is megamorphic). */
export function logValues(r: NewLog, v: unknown[]): void {
  v[0] = r.user_id ?? D.user_id;
  v[1] = r.created_at ?? D.created_at;
  v[2] = r.type ?? D.type;
  v[3] = r.content ?? D.content;
  v[4] = r.username ?? D.username;
  v[5] = r.token_name ?? D.token_name;
  v[6] = r.token_id ?? D.token_id;
  v[7] = r.model_name ?? D.model_name;
  v[8] = r.quota ?? D.quota;
  v[9] = r.prompt_tokens ?? D.prompt_tokens;
  v[10] = r.completion_tokens ?? D.completion_tokens;
  v[11] = r.cache_read_tokens ?? D.cache_read_tokens;
  v[12] = r.cache_write_tokens ?? D.cache_write_tokens;
  v[13] = r.reasoning_tokens ?? D.reasoning_tokens;
  v[14] = r.channel_id ?? D.channel_id;
  v[15] = r.request_time ?? D.request_time;
  v[16] = r.is_stream ?? D.is_stream;
  v[17] = r.source_ip ?? D.source_ip;
  v[18] = r.group ?? D.group;
  v[19] = r.request_id ?? D.request_id;
  v[20] = r.estimated ?? D.estimated;
  v[21] = r.metadata ?? D.metadata;
}

/** Charges and usage gathered since the last flush, by user, token, lease row and channel id. */
export interface CounterDeltas {
  users: Map<number, UserDelta>;
  tokens: Map<number, TokenDelta>;
  /** Spend per lease row (quota_leases.id). */
  leases: Map<number, LeaseSpend>;
  /** Quota used per channel. */
  channels: Map<number, number>;
}

const CLAMPED = (column: string) => `${column} = CASE WHEN ${column} + ? < 0 THEN 0 ELSE ${column} + ? END`;

/** The same writes as quota.ts and quota-leases.ts `spendLeases`, as cached raw statements. */
function applyCounters(raw: BetterSqlite3.Database, c: CounterDeltas): void {
  const user = statement(raw, 'users', () => `UPDATE users SET ${CLAMPED('quota')}, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?`);
  for (const [id, d] of c.users) user.run(d.quota, d.quota, d.usedQuota, d.requests, id);
  const token = statement(raw, 'tokens', () => `UPDATE tokens SET ${CLAMPED('remain_quota')}, used_quota = used_quota + ? WHERE id = ?`);
  for (const [id, d] of c.tokens) token.run(d.remain, d.remain, d.usedQuota, id);
  const lease = statement(raw, 'leases', () => 'UPDATE quota_leases SET amount = amount - ? WHERE id = ?');
  const userCharge = statement(raw, 'userCharge', () => `UPDATE users SET ${CLAMPED('quota')} WHERE id = ?`);
  const tokenCharge = statement(raw, 'tokenCharge', () => `UPDATE tokens SET ${CLAMPED('remain_quota')} WHERE id = ?`);
  for (const [id, s] of c.leases) {
    if (s.amount === 0 || lease.run(s.amount, id).changes === 1) continue;
    // The row is gone (its amount went back to the balance): charge the balance.
    (s.kind === LEASE_KIND.user ? userCharge : tokenCharge).run(-s.amount, -s.amount, s.ownerId);
  }
  const channel = statement(raw, 'channels', () => 'UPDATE channels SET used_quota = used_quota + ? WHERE id = ?');
  for (const [id, used] of c.channels) if (used !== 0) channel.run(used, id);
}

function insertLogs(raw: BetterSqlite3.Database, logs: NewLog[]): void {
  const insert = statement(raw, 'logs', () => `INSERT INTO logs (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`);
  const values: unknown[] = new Array(LOG_COLUMNS.length);
  for (const row of logs) {
    logValues(row, values);
    insert.run(values);
  }
}

/** `INSERT … ON CONFLICT … DO UPDATE` adding a row's sums to the roll-up row of its key. */
const upsertText = (table: string, keys: readonly string[]) =>
  `INSERT INTO ${table} (${[...keys, ...STAT_SUMS].join(', ')}) VALUES (${[...keys, ...STAT_SUMS].map(() => '?').join(', ')}) ` +
  `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${STAT_SUMS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;

/** The daily roll-up rows and their day × channel × model totals. */
function upsertStats(raw: BetterSqlite3.Database, stats: StatRow[]): void {
  const upsert = statement(raw, 'statistics', () => upsertText('statistics', STAT_KEYS));
  for (const s of stats) upsert.run(...STAT_KEYS.map((k) => s[k]), ...STAT_SUMS.map((k) => s[k]));
  const total = statement(raw, 'statistics_totals', () => upsertText('statistics_totals', TOTAL_KEYS));
  for (const t of totalsOf(stats)) total.run(...TOTAL_KEYS.map((k) => t[k]), ...STAT_SUMS.map((k) => t[k]));
}

/**
 * A flush in one synchronous SQLite transaction (one commit, `BEGIN IMMEDIATE` as in sqlite-dialect.ts) with cached statements:
 * counters, log rows and both roll-ups. Going through the query builder instead
 * costs a compile and a prepare per statement and a second commit, several times what
 * the rows themselves cost. Every log row binds all columns (absent ones their
 * defaults), so one statement serves every row shape.
 */
export function writeFlushSync(raw: BetterSqlite3.Database, counters: CounterDeltas, logs: NewLog[], stats: StatRow[]): void {
  asWaitingWriter(() =>
    raw.transaction(() => {
      applyCounters(raw, counters);
      insertLogs(raw, logs);
      upsertStats(raw, stats);
    }).immediate(),
  );
}

/**
 * writeFlushSync waiting at most `busyMs` for the write lock (instead of the connection's
 * busy_timeout): answers false, having written nothing, when another connection (the log
 * deletion's worker) still held it. better-sqlite3 is synchronous, so a wait on the lock is a wait
 * of the whole event loop.
 */
export function tryWriteFlushSync(raw: BetterSqlite3.Database, counters: CounterDeltas, logs: NewLog[], stats: StatRow[], busyMs: number): boolean {
  const usual = Number(raw.pragma('busy_timeout', { simple: true }));
  raw.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyMs))}`);
  try {
    writeFlushSync(raw, counters, logs, stats);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    raw.pragma(`busy_timeout = ${usual}`);
  }
}

/** Log rows and the roll-ups alone, in one synchronous transaction. */
export function writeLogsAndStatsSync(raw: BetterSqlite3.Database, logs: NewLog[], stats: StatRow[]): void {
  asWaitingWriter(() =>
    raw.transaction(() => {
      insertLogs(raw, logs);
      upsertStats(raw, stats);
    }).immediate(),
  );
}
