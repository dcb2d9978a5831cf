import type { Insertable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';

type TableWithId = {
  [K in keyof Database]: Database[K] extends { id: unknown } ? K : never;
}[keyof Database];

/** Inserts one row and answers its new id on every dialect (MySQL has no RETURNING). */
export async function insertReturningId<T extends TableWithId>(
  db: Db,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const adapter = db.getExecutor().adapter;
  // Kysely's generic insert types cannot follow a table name held in a type parameter.
  const query = db.insertInto(table).values(values as never);
  if (adapter.supportsReturning) {
    const row = (await query.returning('id' as never).executeTakeFirstOrThrow()) as unknown as { id: number };
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}

export function dialectOf(db: Db): 'sqlite' | 'postgres' | 'mysql' {
  const name = db.getExecutor().adapter.constructor.name;
  if (name.startsWith('Postgres')) return 'postgres';
  if (name.startsWith('Mysql')) return 'mysql';
  return 'sqlite';
}
