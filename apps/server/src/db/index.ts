import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, Migrator } from 'kysely';
import { preparedOnce, WriterSqliteDialect } from './sqlite-dialect.js';
import type pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { parseDsn, type DbTarget, type DialectName } from './dsn.js';
import { openReadWorkers } from './read-worker/driver.js';
import { useIncrementalVacuum } from './sqlite-auto-vacuum.js';
import { FOREIGN_SCHEMA_MESSAGE, isForeignSchema, refuseForeignSqliteFile } from './sqlite-preflight.js';
import { bindTextSafely } from './pg-text.js';

export type Db = Kysely<Database>;
export type { DialectName };

export interface DbHandle {
  db: Db;
  /**
   * For heavy console reads (analytics, log lists and stats, exports). On a SQLite file its
   * queries run in worker threads on read-only connections, so they never hold the relay's
   * event loop; elsewhere (and for `:memory:`) it is `db` itself.
   */
  readDb: Db;
  dialect: DialectName;
  /** PostgreSQL schema the tables live in, when not the default. */
  pgSchema?: string;
  close(): Promise<void>;
}

const rawSqlite = new WeakMap<object, BetterSqlite3.Database>();

/**
 * The better-sqlite3 handle behind a SQLite Kysely instance. Hot-path writes
 * run on it synchronously (no await between BEGIN and COMMIT), which is both
 * atomic and far faster than the async driver; see db/repos/quota.ts.
 */
export function sqliteHandle(db: Kysely<Database>): BetterSqlite3.Database | undefined {
  return rawSqlite.get(db);
}

/** The PostgreSQL and MySQL drivers are loaded only when configured (they cost ~40 MB of memory). */
async function makeDialect(target: DbTarget, pgOptions?: pg.PoolConfig, onSqlite?: (d: BetterSqlite3.Database) => void) {
  switch (target.dialect) {
    case 'sqlite': {
      refuseForeignSqliteFile(target.path);
      if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
      const database = new BetterSqlite3(target.path);
      database.pragma('journal_mode = WAL');
      database.pragma('busy_timeout = 5000');
      database.pragma('synchronous = NORMAL');
      // 32 MB of page cache (SQLite's default is 2 MB): deleting or writing log rows touches every
      // log index at random places, and with the indexes out of cache each batch waited on reads.
      database.pragma('cache_size = -32768');
      if (target.path !== ':memory:') useIncrementalVacuum(database);
      onSqlite?.(database);
      return new WriterSqliteDialect({ database: preparedOnce(database) });
    }
    case 'postgres': {
      const { default: pgLib } = await import('pg');
      // int8 and numeric come back as strings; every such column here fits a JS number.
      pgLib.types.setTypeParser(20, (v) => Number(v));
      pgLib.types.setTypeParser(1700, (v) => Number(v));
      return new PostgresDialect({ pool: bindTextSafely(new pgLib.Pool({ connectionString: target.url, max: 10, ...pgOptions })) });
    }
    case 'mysql': {
      const { createPool } = await import('mysql2');
      return new MysqlDialect({
        pool: createPool({
          host: target.host,
          port: target.port,
          user: target.user,
          password: target.password,
          database: target.database,
          connectionLimit: 10,
          decimalNumbers: true,
          supportBigNumbers: true,
          bigNumberStrings: false,
          charset: 'utf8mb4',
        }),
      });
    }
  }
}

export interface OpenDbOptions {
  dsn?: string;
  sqlitePath: string;
  /** PostgreSQL schema to use instead of the default (tests isolate each run in one). */
  pgSchema?: string;
}

export async function openDb(opts: OpenDbOptions): Promise<DbHandle> {
  const target = parseDsn(opts.dsn, opts.sqlitePath);
  const pgOptions = opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : undefined;
  let raw: BetterSqlite3.Database | undefined;
  const db = new Kysely<Database>({ dialect: await makeDialect(target, pgOptions, (d) => (raw = d)) });
  if (raw) rawSqlite.set(db, raw);
  const readDb = target.dialect === 'sqlite' && target.path !== ':memory:' ? openReadWorkers(target.path) : db;
  return {
    db,
    readDb,
    dialect: target.dialect,
    pgSchema: opts.pgSchema,
    close: async () => {
      if (readDb !== db) await readDb.destroy();
      await db.destroy();
    },
  };
}

/**
 * A database the original (Go) One Hub, one-api or new-api wrote has their tables and none of our
 * migrations: it is refused before anything is created, so it is never half-migrated.
 */
export async function refuseForeignSchema(db: Db, pgSchema?: string): Promise<void> {
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).filter((t) => !pgSchema || t.schema === pgSchema).map((t) => t.name);
  if (isForeignSchema(tables)) throw new Error(FOREIGN_SCHEMA_MESSAGE);
}

/** Brings the schema up to date; Kysely's lock table keeps concurrent nodes from racing. */
export async function migrate(db: Db, pgSchema?: string): Promise<void> {
  await refuseForeignSchema(db, pgSchema);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
