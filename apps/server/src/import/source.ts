import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Rows of the database being moved in (read only). */
export interface Source {
  tables(): string[];
  columns(table: string): string[];
  /** Rows ordered by `key`, after `after` (exclusive), at most `limit`. */
  page(table: string, key: string, after: string | number | undefined, limit: number, where?: { column: string; min: number }): Record<string, unknown>[];
  count(table: string): number;
  close(): void;
}

/** The dialect a DSN names: a SQLite file path, postgres://…, mysql://… or the Go form user:pass@tcp(host)/db. */
export function sourceKind(dsn: string): 'sqlite' | 'postgres' | 'mysql' {
  if (/^postgres(ql)?:\/\//.test(dsn)) return 'postgres';
  if (/^mysql:\/\//.test(dsn) || /@tcp\(/.test(dsn)) return 'mysql';
  return 'sqlite';
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function openSqliteSource(path: string): Source {
  const file = path.replace(/^sqlite:\/\//, '').replace(/^file:/, '');
  if (!existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    tables: () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name),
    columns: (table) => (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as Array<{ name: string }>).map((c) => c.name),
    page(table, key, after, limit, where) {
      const conds: string[] = [];
      const args: unknown[] = [];
      if (after !== undefined) {
        conds.push(`${quote(key)} > ?`);
        args.push(after);
      }
      if (where) {
        conds.push(`${quote(where.column)} >= ?`);
        args.push(where.min);
      }
      const sql = `SELECT * FROM ${quote(table)}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${quote(key)} LIMIT ?`;
      return db.prepare(sql).all(...args, limit) as Record<string, unknown>[];
    },
    count: (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${quote(table)}`).get() as { n: number }).n,
    close: () => db.close(),
  };
}

export function openSource(dsn: string): Source {
  const kind = sourceKind(dsn);
  if (kind !== 'sqlite') throw new Error(`importing from ${kind} is not supported yet: dump the database to SQLite first, or import from a SQLite copy`);
  return openSqliteSource(dsn);
}
