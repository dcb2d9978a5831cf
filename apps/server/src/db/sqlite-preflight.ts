import { closeSync, existsSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

export const FOREIGN_SCHEMA_MESSAGE =
  'This database was created by One Hub (Go), one-api or new-api (it has their tables and none of ours). ' +
  'It is not changed in place: start One Hub on an empty database, then copy the data over with `npm run import -- --from <this database DSN>`.';

/** The original projects' tables without our migration table. */
export const isForeignSchema = (tables: string[]) => tables.includes('channels') && !tables.includes('kysely_migration');

/** Byte 18 of the header is 2 for a file in WAL mode. */
function inWalMode(path: string): boolean {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens an existing SQLite file read-only, for reading another install's data. A file in WAL
 * mode makes SQLite create -wal and -shm beside it even then; `close` removes them again when
 * they were not there before and the -wal stayed empty, so the directory is left as found.
 */
export function openReadOnlySqlite(path: string): { db: BetterSqlite3.Database; close(): void } {
  const companions = inWalMode(path) ? [`${path}-wal`, `${path}-shm`].filter((p) => !existsSync(p)) : [];
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  return {
    db,
    close: () => {
      db.close();
      const wal = companions.find((p) => p.endsWith('-wal'));
      if (wal && existsSync(wal) && statSync(wal).size > 0) return;
      for (const p of companions) if (existsSync(p)) unlinkSync(p);
    },
  };
}

/** Refuses an existing SQLite file in an original project's schema before it is opened for writing (which switches it to WAL and vacuums it). */
export function refuseForeignSqliteFile(path: string): void {
  if (path === ':memory:' || !existsSync(path) || statSync(path).size === 0) return;
  const file = openReadOnlySqlite(path);
  let tables: string[];
  try {
    tables = (file.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    file.close();
  }
  if (isForeignSchema(tables)) throw new Error(FOREIGN_SCHEMA_MESSAGE);
}
