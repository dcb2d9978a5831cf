import { sql, type Kysely } from 'kysely';

/**
 * Background Responses (`background: true`). An `upstream` row is a response an OpenAI-style
 * channel runs: its worst case was charged when it was accepted, and the row waits for a
 * poller to read the final usage, settle the difference and end it (exactly once: the row's
 * status changes from `pending` in one conditional update). A `local` row is a response the
 * gateway runs itself for a converted channel: its latest response object and the events so far.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const mysql = db.getExecutor().adapter.constructor.name.startsWith('Mysql');
  const long = mysql ? sql.raw('longtext') : 'text';
  await db.schema
    .createTable('background_responses')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    // upstream | local
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // pending, then the response's final status
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('token_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'bigint', (c) => c.notNull().defaultTo(0))
    // What the charge was worked out from (JSON): group, ratio, price, prompt estimate, output cap, plan window.
    .addColumn('facts', 'text', (c) => c.notNull())
    // Charged to the balance (or the plan window) when upstream accepted it.
    .addColumn('held', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('billed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('response', long)
    .addColumn('events', long)
    .addColumn('node', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_background_responses_status').ifNotExists().on('background_responses').columns(['status', 'kind']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('background_responses').ifExists().execute();
}
