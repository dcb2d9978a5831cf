import { sql, type Kysely } from 'kysely';

/**
 * Responses the gateway produced by converting `/v1/responses` for a non-OpenAI channel,
 * kept so a later `previous_response_id` can rebuild the conversation (ResponsesRetentionHours).
 * `items` holds the whole conversation as Responses input items (JSON); a Claude Code-sized
 * history outgrows MySQL's 64 KB TEXT, hence LONGTEXT there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const mysql = db.getExecutor().adapter.constructor.name.startsWith('Mysql');
  let table = db.schema
    .createTable('stored_responses')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('model', 'varchar(191)', (c) => c.notNull().defaultTo(''))
    .addColumn('items', mysql ? sql.raw('longtext') : 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull());
  if (mysql) table = table.modifyEnd(sql`default character set utf8mb4`);
  await table.execute();
  await db.schema.createIndex('idx_stored_responses_expires_at').ifNotExists().on('stored_responses').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_responses').ifExists().execute();
}
