import type { Kysely } from 'kysely';

/** Why a payment notice was refused for an order (amount or currency mismatch), shown to admins. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('fail_reason', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('fail_reason').execute();
}
