import type { Kysely } from 'kysely';

/**
 * Request limits (RPM, TPM, in flight, daily and monthly spending caps): a user's, set by an
 * admin, and a group's per model. JSON text; NULL means no limits. Tokens keep theirs in `setting`.
 *
 * The admin audit log: one row per change an administrator made through /api (and per channel
 * key revealed), with a before/after diff whose secrets are masked. Rows are never updated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('limits', 'text').execute();
  await db.schema.alterTable('user_groups').addColumn('model_limits', 'text').execute();
  const name = db.getExecutor().adapter.constructor.name;
  const id = name.startsWith('Postgres') ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  await db.schema
    .createTable('audit_logs')
    .ifNotExists()
    .addColumn('id', id, (c) => (name.startsWith('Postgres') ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'bigint', (c) => c.notNull())
    .addColumn('actor_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('actor_role', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('diff', 'text')
    .execute();
  await db.schema.createIndex('idx_audit_logs_created_at').ifNotExists().on('audit_logs').column('created_at').execute();
  await db.schema.createIndex('idx_audit_logs_actor').ifNotExists().on('audit_logs').columns(['actor_id', 'created_at']).execute();
  await db.schema.createIndex('idx_audit_logs_kind').ifNotExists().on('audit_logs').columns(['target_kind', 'created_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_logs').ifExists().execute();
  await db.schema.alterTable('user_groups').dropColumn('model_limits').execute();
  await db.schema.alterTable('users').dropColumn('limits').execute();
}
