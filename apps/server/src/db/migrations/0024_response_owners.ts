import { sql, type Kysely } from 'kysely';

/**
 * Stored responses record the channel that produced them and the response object itself, so
 * `GET/DELETE /v1/responses/{id}` can be answered (or passed to that channel) after a restart
 * and on any node. A row with empty `items` only records ownership of a response an OpenAI-style
 * channel keeps upstream (pass-through).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const mysql = db.getExecutor().adapter.constructor.name.startsWith('Mysql');
  await db.schema.alterTable('stored_responses').addColumn('channel_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('stored_responses').addColumn('response', mysql ? sql.raw('longtext') : 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stored_responses').dropColumn('response').execute();
  await db.schema.alterTable('stored_responses').dropColumn('channel_id').execute();
}
