import { sql, type Kysely } from 'kysely';

/**
 * Long-context price tiers: JSON text `[{above, input, output, extra_ratios?}]` ascending by
 * `above` (prompt tokens); NULL means one price for every prompt size.
 *
 * Opt-in captures of relay request and response bodies (redacted, size-capped), read by root
 * beside the log row with the same request id, deleted after LogCaptureRetentionDays.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prices').addColumn('tiers', 'text').execute();
  const name = db.getExecutor().adapter.constructor.name;
  const id = name.startsWith('Postgres') ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  const big = name.startsWith('Mysql') ? sql`mediumtext` : sql`text`;
  await db.schema
    .createTable('log_captures')
    .ifNotExists()
    .addColumn('id', id, (c) => (name.startsWith('Postgres') ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('token_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('request_headers', 'text')
    .addColumn('request_body', big)
    .addColumn('response_body', big)
    .execute();
  await db.schema.createIndex('idx_log_captures_request').ifNotExists().on('log_captures').column('request_id').execute();
  await db.schema.createIndex('idx_log_captures_created_at').ifNotExists().on('log_captures').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('log_captures').ifExists().execute();
  await db.schema.alterTable('prices').dropColumn('tiers').execute();
}
