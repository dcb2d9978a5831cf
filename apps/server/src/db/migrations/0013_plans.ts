import type { Kysely } from 'kysely';

/**
 * Subscription plans (issue 21.1): the plans an admin defines, each user's subscriptions, and the
 * quota spent per subscription window (written behind from the relay; the live counter is in the
 * shared store). Orders and redemption codes may carry a plan (0: a quota top-up / quota code);
 * `users.plan_fallback` is the user's switch to pay from the balance once a plan window is spent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  const pg = name.startsWith('Postgres');
  const id = pg ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  const key = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()); // eslint-disable-line @typescript-eslint/no-explicit-any
  await db.schema
    .createTable('plans')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(8)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('duration_kind', 'varchar(8)', (c) => c.notNull().defaultTo('month'))
    .addColumn('duration_count', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('window_kind', 'varchar(8)', (c) => c.notNull().defaultTo('period'))
    .addColumn('window_quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('groups', 'text')
    .addColumn('models', 'text')
    .addColumn('renews', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createTable('subscriptions')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_ref', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_subscriptions_user').ifNotExists().on('subscriptions').columns(['user_id', 'end_at']).execute();
  await db.schema
    .createTable('plan_usage')
    .ifNotExists()
    .addColumn('subscription_id', 'bigint', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('pk_plan_usage', ['subscription_id', 'window_start'])
    .execute();
  await db.schema.alterTable('orders').addColumn('plan_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('redemptions').addColumn('plan_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('plan_fallback', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('plan_fallback').execute();
  await db.schema.alterTable('redemptions').dropColumn('plan_id').execute();
  await db.schema.alterTable('orders').dropColumn('plan_id').execute();
  await db.schema.dropTable('plan_usage').ifExists().execute();
  await db.schema.dropTable('subscriptions').ifExists().execute();
  await db.schema.dropTable('plans').ifExists().execute();
}
