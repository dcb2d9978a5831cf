import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from '../schema.js';
import { ReadWorkerPool } from './pool.js';

class WorkerConnection implements DatabaseConnection {
  constructor(private readonly pool: ReadWorkerPool) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.pool.query(compiled.sql, compiled.parameters)) as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('read workers do not stream');
  }
}

/** A Kysely driver whose queries run in the read workers; it reads only (no transactions). */
class WorkerDriver implements Driver {
  private readonly pool: ReadWorkerPool;
  private readonly connection: WorkerConnection;

  constructor(path: string, size: number) {
    this.pool = new ReadWorkerPool(path, size);
    this.connection = new WorkerConnection(this.pool);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('the read-only connection has no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * A Kysely instance over the same SQLite file whose queries run off the relay's thread: any
 * query written for the main `Db` runs on it unchanged (same compiler, same types), so heavy
 * console reads (analytics, log lists, exports) only swap which instance they are given.
 */
export function openReadWorkers(path: string, size = 2): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new WorkerDriver(path, size),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
