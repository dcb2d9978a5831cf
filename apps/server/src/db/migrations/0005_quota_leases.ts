import { type Kysely } from 'kysely';

/**
 * Slices of a user's or a token's balance that one node has taken out of the balance column
 * to serve quota holds from memory (docs/decisions/0017-quota-leases.md). `amount` is what the
 * slice still holds: taken, minus what the node has since written as spent. A row whose
 * `expires_at` has passed belongs to a node that stopped renewing it (a crash): any node
 * gives its amount back to the owner's balance and deletes it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  const id = name.startsWith('Postgres') ? 'bigserial' : name.startsWith('Mysql') ? 'bigint' : 'integer';
  await db.schema
    .createTable('quota_leases')
    .ifNotExists()
    .addColumn('id', id, (c) => (name.startsWith('Postgres') ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('node', 'varchar(64)', (c) => c.notNull())
    // 1: users.quota, 2: tokens.remain_quota
    .addColumn('owner_kind', 'bigint', (c) => c.notNull())
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_quota_leases_owner').ifNotExists().on('quota_leases').columns(['owner_kind', 'owner_id']).execute();
  await db.schema.createIndex('idx_quota_leases_node').ifNotExists().on('quota_leases').column('node').execute();
  await db.schema.createIndex('idx_quota_leases_expires_at').ifNotExists().on('quota_leases').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_leases').ifExists().execute();
}
