import type { Kysely } from 'kysely';

/**
 * The last run of each scheduled job (one row per job name), so the system info screen still
 * shows it after a restart: when it started, how long it took, its outcome and message.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .ifNotExists()
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('last_run_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_outcome', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_message', 'text')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_runs').ifExists().execute();
}
