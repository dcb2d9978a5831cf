import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

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
