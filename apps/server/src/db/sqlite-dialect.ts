import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';

/**
 * Transactions start with `BEGIN IMMEDIATE`: the write lock is taken first, waiting on
 * busy_timeout while another process (a worker of the same node, WORKERS) holds it. A deferred
 * `BEGIN` that read first would, once another process had committed since, fail its first write
 * at once with SQLITE_BUSY_SNAPSHOT (WAL keeps its old snapshot), with no wait at all.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly flagged = new WeakMap<DatabaseConnection, DatabaseConnection>();

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /** The one connection, its writes counted in WRITERS_WAITING while they run (they may wait for the lock). */
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let wrapped = this.flagged.get(connection);
    if (!wrapped) {
      wrapped = {
        executeQuery: (query) => (READS.test(query.sql) ? connection.executeQuery(query) : asWaitingWriter(() => connection.executeQuery(query))),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      this.flagged.set(connection, wrapped);
    }
    return wrapped;
  }
}

const READS = /^\s*(select|with)\b/i;

/**
 * Writes of this thread's connection (one kysely statement, `BEGIN IMMEDIATE` included) under way,
 * shared with the log deletion's worker thread (delete-worker): better-sqlite3 is synchronous, so a
 * write that finds the lock taken holds the event loop in SQLite's busy handler, whose sleeps grow
 * (1, 2, 5 … 100 ms) and may wake each time into the worker's next batch. While this is not 0 the
 * worker starts no batch, so the write gets the lock at its next try, one batch at most after it asked.
 */
export const WRITERS_WAITING = new Int32Array(new SharedArrayBuffer(4));

/** `write`, counted in WRITERS_WAITING while it runs (its synchronous part: where a busy wait happens). */
export function asWaitingWriter<T>(write: () => T): T {
  Atomics.add(WRITERS_WAITING, 0, 1);
  try {
    return write();
  } finally {
    Atomics.sub(WRITERS_WAITING, 0, 1);
  }
}

export class WriterSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * The handle Kysely gets: its driver prepares every query it runs, and a prepare costs more than
 * running a short statement (a lease take is five). The same text (values are parameters) is
 * prepared once and kept, the least recently used dropped past `keep`. A kept statement still
 * iterating (a streamed select) is not handed out again: that query gets one of its own.
 */
export function preparedOnce(db: BetterSqlite3.Database, keep = 512): SqliteDatabase {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      const known = kept.get(sql);
      if (known?.busy) return db.prepare(sql);
      kept.delete(sql);
      const statement = known ?? db.prepare(sql);
      kept.set(sql, statement);
      if (kept.size > keep) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}
