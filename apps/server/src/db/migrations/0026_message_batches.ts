import { sql, type Kysely } from 'kysely';

/**
 * Anthropic Message Batches the gateway relayed (issue 36 item 5): who created each batch (user,
 * token, group), the channel that runs it, what its creation took from the balance (`held`, the
 * worst case at the channel's batch ratio), the price facts of its requests (`requests`: JSON
 * custom_id → model, group ratio and batch ratio), the last batch object upstream showed, and,
 * once it ended and was billed from its results, what it cost (`quota`) and when (`settled_at`,
 * 0 while it still runs). `deleted_at` hides a batch its owner deleted; the row stays as the
 * record of the charge.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  const id = name.startsWith('Postgres') ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  const long = name.startsWith('Mysql') ? sql.raw('longtext') : 'text';
  await db.schema
    .createTable('message_batches')
    .ifNotExists()
    .addColumn('id', id, (c) => (name.startsWith('Postgres') ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('batch_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('token_id', 'bigint', (c) => c.notNull())
    .addColumn('token_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('group', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('held', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('in_progress'))
    .addColumn('requests', long, (c) => c.notNull())
    .addColumn('batch', long)
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_message_batches_batch_id').ifNotExists().on('message_batches').column('batch_id').unique().execute();
  await db.schema.createIndex('idx_message_batches_user_id').ifNotExists().on('message_batches').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('idx_message_batches_settled_at').ifNotExists().on('message_batches').column('settled_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_batches').ifExists().execute();
}
