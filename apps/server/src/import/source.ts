import { existsSync } from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { parseDsn } from '../db/dsn.js';
import { openReadOnlySqlite } from '../db/sqlite-preflight.js';

/** Rows of the database being moved in (read only). Its tables and columns are read when it is opened. */
export interface Source {
  kind: 'sqlite' | 'postgres' | 'mysql';
  tables(): string[];
  columns(table: string): string[];
  /** Rows ordered by `key`, after `after` (exclusive), at most `limit`. */
  page(table: string, key: string, after: string | number | undefined, limit: number, where?: { column: string; min: number }): Promise<Record<string, unknown>[]>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

/** The dialect a DSN names: a SQLite file path, postgres://…, mysql://… or the Go form user:pass@tcp(host)/db. */
export function sourceKind(dsn: string): 'sqlite' | 'postgres' | 'mysql' {
  if (/^postgres(ql)?:\/\//.test(dsn)) return 'postgres';
  if (/^mysql:\/\//.test(dsn) || /@tcp\(/.test(dsn)) return 'mysql';
  return 'sqlite';
}

type Run = (sql: string, args: unknown[]) => Promise<Record<string, unknown>[]>;

/** The one SELECT shape every dialect shares: keyset pages, optionally only rows newer than a time. */
function pager(run: Run, quote: (name: string) => string, param: (i: number) => string) {
  return async (table: string, key: string, after: string | number | undefined, limit: number, where?: { column: string; min: number }) => {
    const conds: string[] = [];
    const args: unknown[] = [];
    if (after !== undefined) {
      args.push(after);
      conds.push(`${quote(key)} > ${param(args.length)}`);
    }
    if (where) {
      args.push(where.min);
      conds.push(`${quote(where.column)} >= ${param(args.length)}`);
    }
    args.push(limit);
    const text = `SELECT * FROM ${quote(table)}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${quote(key)} LIMIT ${param(args.length)}`;
    return run(text, args);
  };
}

function catalog(rows: Array<{ table_name: string; column_name: string }>) {
  const byTable = new Map<string, string[]>();
  for (const r of rows) {
    const list = byTable.get(r.table_name) ?? [];
    list.push(r.column_name);
    byTable.set(r.table_name, list);
  }
  return { tables: () => [...byTable.keys()], columns: (table: string) => byTable.get(table) ?? [] };
}

export function openSqliteSource(path: string): Source {
  const file = path.replace(/^sqlite:\/\//, '').replace(/^file:/, '');
  if (!existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  const handle = openReadOnlySqlite(file);
  const db = handle.db;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
  const rows = tables.flatMap((t) => (db.prepare(`PRAGMA table_info(${quote(t)})`).all() as Array<{ name: string }>).map((c) => ({ table_name: t, column_name: c.name })));
  const run: Run = async (text, args) => db.prepare(text).all(...args) as Record<string, unknown>[];
  return {
    kind: 'sqlite',
    ...catalog(rows),
    page: pager(run, quote, () => '?'),
    count: async (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${quote(table)}`).get() as { n: number }).n,
    close: async () => handle.close(),
  };
}

/** A PostgreSQL source: the tables of the connection's current schema (`?options=-c search_path=…` picks another). */
export async function openPostgresSource(url: string): Promise<Source> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const cols = await client.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
    );
    const run: Run = async (text, args) => (await client.query(text, args)).rows;
    return {
      kind: 'postgres',
      ...catalog(cols.rows),
      page: pager(run, quote, (i) => `$${i}`),
      count: async (table) => Number((await client.query(`SELECT COUNT(*) AS n FROM ${quote(table)}`)).rows[0].n),
      close: () => client.end(),
    };
  } catch (error) {
    await client.end();
    throw error;
  }
}

/** A MySQL / MariaDB source, from a mysql:// URL or the Go driver's user:pass@tcp(host:port)/db. */
export async function openMysqlSource(dsn: string): Promise<Source> {
  const target = parseDsn(dsn, '');
  if (target.dialect !== 'mysql') throw new Error('not a MySQL DSN');
  const conn = await mysql.createConnection({ host: target.host, port: target.port, user: target.user, password: target.password, database: target.database, supportBigNumbers: true, dateStrings: false });
  try {
    const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;
    const [cols] = await conn.query(
      `SELECT c.TABLE_NAME AS table_name, c.COLUMN_NAME AS column_name FROM information_schema.COLUMNS c JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
       WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE' ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
    );
    // Placeholders go through the text protocol (LIMIT takes a number there, and keys of any type compare).
    const run: Run = async (text, args) => (await conn.query(text, args))[0] as Record<string, unknown>[];
    return {
      kind: 'mysql',
      ...catalog(cols as Array<{ table_name: string; column_name: string }>),
      page: pager(run, quote, () => '?'),
      count: async (table) => Number(((await conn.query(`SELECT COUNT(*) AS n FROM ${quote(table)}`))[0] as Array<{ n: number }>)[0].n),
      close: () => conn.end(),
    };
  } catch (error) {
    await conn.end();
    throw error;
  }
}

export async function openSource(dsn: string): Promise<Source> {
  const kind = sourceKind(dsn);
  if (kind === 'postgres') return openPostgresSource(dsn);
  if (kind === 'mysql') return openMysqlSource(dsn);
  return openSqliteSource(dsn);
}
