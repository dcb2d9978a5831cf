import type { Kysely } from 'kysely';

/** The LINUX DO Connect account a user signs in with (issue 17); '' when none is bound. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('linuxdo_id', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('idx_users_linuxdo_id').ifNotExists().on('users').column('linuxdo_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('idx_users_linuxdo_id').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('linuxdo_id').execute();
}
