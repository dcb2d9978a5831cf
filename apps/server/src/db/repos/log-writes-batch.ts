import { CompiledQuery } from 'kysely';
import type { Db } from '../index.js';
import type { NewLog } from './logs.js';
import { STAT_KEYS, STAT_SUMS, TOTAL_KEYS, totalsOf, type StatRow, type TotalRow } from './rollup-rows.js';
import { LOG_COLUMNS, LOG_DEFAULTS, logValues } from './log-writes-sqlite.js';

type Dialect = 'postgres' | 'mysql';

/** PostgreSQL's ceiling on bind parameters in one statement (a 16-bit count in its protocol). */
export const MAX_PARAMS = 65_535;
/**
 * Bytes of values one MySQL statement may carry. mysql2 inlines the values into the text, which
 * must fit max_allowed_packet: 4 MB by default on MySQL 5.7, 16 MB on MariaDB, 64 MB on MySQL 8.
 */
export const MYSQL_MAX_BYTES = 1 << 20;

/** An upper bound on a value's size in the statement: UTF-8 takes at most 3 bytes per UTF-16 unit, and so does an escaped character. */
function valueBytes(v: unknown): number {
  return typeof v === 'string' ? v.length * 3 + 2 : 24;
}

const quote = (d: Dialect, name: string) => (d === 'mysql' ? `\`${name}\`` : `"${name}"`);

/** `(?, ?), (?, ?)` on MySQL, `($1, $2), ($3, $4)` on PostgreSQL: `rows` tuples of `width` placeholders. */
function placeholders(d: Dialect, rows: number, width: number): string {
  const tuples: string[] = new Array(rows);
  if (d === 'mysql') return tuples.fill(`(${'?, '.repeat(width - 1)}?)`).join(', ');
  let n = 0;
  for (let r = 0; r < rows; r++) {
    let t = `($${++n}`;
    for (let c = 1; c < width; c++) t += `, $${++n}`;
    tuples[r] = `${t})`;
  }
  return tuples.join(', ');
}

/** A constraint or bad-value error (SQLSTATE classes 22 and 23): the rows, not the database, are at fault. */
function isDataError(error: unknown): boolean {
  const e = error as { code?: unknown; sqlState?: unknown };
  const state = String(e?.sqlState ?? e?.code ?? '');
  return /^2[23][0-9A-Z]{3}$/.test(state);
}

interface MultiRow {
  width: number;
  count: number;
  /** Writes row i's values into `out` (length `width`). */
  values(i: number, out: unknown[]): void;
  /** The statement for `rows` rows, given their placeholders. */
  text(tuples: string): string;
}

/** Runs one statement; a refused one aborts a PostgreSQL transaction, so inside one it gets a savepoint to return to. */
async function exec(db: Db, d: Dialect, text: string, params: unknown[]): Promise<void> {
  const guarded = d === 'postgres' && db.isTransaction;
  if (guarded) await db.executeQuery(CompiledQuery.raw('SAVEPOINT multi_row'));
  try {
    await db.executeQuery(CompiledQuery.raw(text, params));
  } catch (error) {
    if (guarded) await db.executeQuery(CompiledQuery.raw('ROLLBACK TO SAVEPOINT multi_row'));
    throw error;
  }
}

/**
 * Writes rows in as few multi-row statements as the limits allow (MAX_PARAMS values, and
 * MYSQL_MAX_BYTES on MySQL). A statement refused for a bad row is retried one row at a time,
 * so one bad row costs only itself; answers the first refusal (undefined when every row went in),
 * so that a transaction around the writes can still commit the others. Other errors are thrown.
 */
async function writeMultiRow(db: Db, d: Dialect, m: MultiRow): Promise<unknown> {
  const maxRows = Math.floor(MAX_PARAMS / m.width);
  const row: unknown[] = new Array(m.width);
  let params: unknown[] = [];
  let rows = 0;
  let bytes = 0;
  let failure: unknown;
  const run = async () => {
    const batch = params;
    const n = rows;
    params = [];
    rows = 0;
    bytes = 0;
    try {
      await exec(db, d, m.text(placeholders(d, n, m.width)), batch);
    } catch (error) {
      if (n === 1 || !isDataError(error)) throw error;
      for (let i = 0; i < n; i++) {
        const one = batch.slice(i * m.width, (i + 1) * m.width);
        await exec(db, d, m.text(placeholders(d, 1, m.width)), one).catch((e: unknown) => (failure ??= e));
      }
    }
  };
  for (let i = 0; i < m.count; i++) {
    m.values(i, row);
    let size = 0;
    if (d === 'mysql') for (const v of row) size += valueBytes(v);
    if (rows && (rows === maxRows || bytes + size > MYSQL_MAX_BYTES)) await run();
    for (const v of row) params.push(v);
    rows++;
    bytes += size;
  }
  if (rows) await run();
  return failure;
}

const byDialect = <T>(text: (d: Dialect) => T) => ({ postgres: text('postgres'), mysql: text('mysql') });
const LOG_HEAD = byDialect((d) => `INSERT INTO logs (${LOG_COLUMNS.map((c) => quote(d, c)).join(', ')}) VALUES `);

/** Log rows as multi-row INSERTs, every column bound (absent ones their defaults) so rows of any shape share a statement; answers the first refusal. */
export function insertLogsBatched(db: Db, d: Dialect, logs: NewLog[]): Promise<unknown> {
  return d === 'postgres' ? insertLogsAsJson(db, logs) : insertLogsBound(db, d, logs);
}

/** Rows one PostgreSQL statement carries as JSON (≈0.5 KB each: a few MB a statement). */
export const JSON_CHUNK_ROWS = 4096;

/** `INSERT … SELECT` from one JSON array of rows: a key the row lacks, or holds null, takes the column's default. */
const PG_JSON_INSERT = (() => {
  const columns = LOG_COLUMNS.map((c) => quote('postgres', c));
  const literal = (v: number | string | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`);
  const picked = LOG_COLUMNS.map((c, i) => `COALESCE(r.${columns[i]}, ${literal(LOG_DEFAULTS[c])})`);
  const shape = LOG_COLUMNS.map((c, i) => `${columns[i]} ${typeof LOG_DEFAULTS[c] === 'number' ? 'bigint' : 'text'}`);
  return `INSERT INTO logs (${columns.join(', ')}) SELECT ${picked.join(', ')} FROM json_to_recordset($1::json) AS r(${shape.join(', ')})`;
})();

/**
 * PostgreSQL: each chunk of rows as one JSON parameter. Measured beside 22 bound values a row
 * (256-row batches): Node spends ≈3 instead of 6–12 µs a row and PostgreSQL ≈19 instead of ≈32.
 * A chunk refused for its data goes through the bound-value statements, which isolate the bad
 * row (and take what JSON cannot carry, such as a lone UTF-16 surrogate).
 */
async function insertLogsAsJson(db: Db, logs: NewLog[]): Promise<unknown> {
  let failure: unknown;
  for (let i = 0; i < logs.length; i += JSON_CHUNK_ROWS) {
    const chunk = logs.slice(i, i + JSON_CHUNK_ROWS);
    try {
      await exec(db, 'postgres', PG_JSON_INSERT, [JSON.stringify(chunk)]);
    } catch (error) {
      if (!isDataError(error)) throw error;
      const refused = await insertLogsBound(db, 'postgres', chunk);
      failure ??= refused;
    }
  }
  return failure;
}

function insertLogsBound(db: Db, d: Dialect, logs: NewLog[]): Promise<unknown> {
  const head = LOG_HEAD[d];
  return writeMultiRow(db, d, {
    width: LOG_COLUMNS.length,
    count: logs.length,
    values: (i, out) => logValues(logs[i], out),
    text: (tuples) => head + tuples,
  });
}

/** `INSERT … VALUES … ON CONFLICT/DUPLICATE KEY` adding each row's sums to the roll-up row of its key. */
function upsertText(d: Dialect, table: string, keys: readonly string[]): { head: string; tail: string } {
  const columns = [...keys, ...STAT_SUMS];
  return {
    head: `INSERT INTO ${table} (${columns.map((c) => quote(d, c)).join(', ')}) VALUES `,
    tail:
      d === 'mysql'
        ? `ON DUPLICATE KEY UPDATE ${STAT_SUMS.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`
        : `ON CONFLICT (${keys.map((c) => quote(d, c)).join(', ')}) DO UPDATE SET ${STAT_SUMS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
  };
}
const STAT_UPSERT = byDialect((d) => upsertText(d, 'statistics', STAT_KEYS));
const TOTAL_UPSERT = byDialect((d) => upsertText(d, 'statistics_totals', TOTAL_KEYS));

function upsertRows<R extends TotalRow>(db: Db, d: Dialect, statement: { head: string; tail: string }, keys: ReadonlyArray<keyof R>, rows: R[]): Promise<unknown> {
  const columns = [...keys, ...STAT_SUMS] as Array<keyof R>;
  return writeMultiRow(db, d, {
    width: columns.length,
    count: rows.length,
    values: (i, out) => {
      const r = rows[i];
      for (let c = 0; c < columns.length; c++) out[c] = r[columns[c]];
    },
    text: (tuples) => `${statement.head}${tuples} ${statement.tail}`,
  });
}

/**
 * Roll-up rows, and their day × channel × model totals, as multi-row upserts. Rows for the same
 * key are summed first (PostgreSQL refuses to update one row twice in a statement), and written in
 * key order, so nodes flushing at the same time lock rows in the same order and cannot deadlock.
 * Run inside a transaction, so that both roll-ups change together; answers the first refusal.
 */
export async function upsertStatisticsBatched(db: Db, d: Dialect, rows: StatRow[]): Promise<unknown> {
  const byKey = new Map<string, StatRow>();
  for (const r of rows) {
    const key = `${r.date}|${r.user_id}|${r.channel_id}|${r.model_name}`;
    const s = byKey.get(key);
    if (!s) byKey.set(key, { ...r });
    else for (const c of STAT_SUMS) s[c] += r[c];
  }
  const merged = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
  const refused = await upsertRows(db, d, STAT_UPSERT[d], STAT_KEYS, merged);
  return (await upsertRows(db, d, TOTAL_UPSERT[d], TOTAL_KEYS, totalsOf(merged))) ?? refused;
}
