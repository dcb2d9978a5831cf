import type { Kysely } from 'kysely';

/**
 * Console log deletions as durable jobs (issue 37 point 2): what goes (`target_timestamp`, `type`,
 * 0 = every type), the id range it walks (`last_id` reached so far, `max_id` the newest row older
 * than the target when it started), the rows deleted, and `status` running | done | failed. Each
 * batch and its progress commit together, so a restart resumes from `last_id` with exact counts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  const id = name.startsWith('Postgres') ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  await db.schema
    .createTable('log_deletions')
    .ifNotExists()
    .addColumn('id', id, (c) => (name.startsWith('Postgres') ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('target_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('max_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('running'))
    .addColumn('error', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_log_deletions_status').ifNotExists().on('log_deletions').column('status').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('log_deletions').ifExists().execute();
}
