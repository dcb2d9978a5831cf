import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';

/**
 * Transactions start with `BEGIN IMMEDIATE`: the write lock is taken first, waiting on
 * busy_timeout while another process (a worker of the same node, WORKERS) holds it. A deferred
 * `BEGIN` that read first would, once another process had committed since, fail its first write
 * at once with SQLITE_BUSY_SNAPSHOT (WAL keeps its old snapshot), with no wait at all.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
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
