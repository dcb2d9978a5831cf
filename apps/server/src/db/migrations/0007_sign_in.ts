import type { Kysely } from 'kysely';

/**
 * Sign-in (issue 17): the LINUX DO account a user signs in with ('' when none), and one
 * `two_factor` row per user who set up a TOTP authenticator.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('linuxdo_id', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('idx_users_linuxdo_id').ifNotExists().on('users').column('linuxdo_id').execute();
  await db.schema
    .createTable('two_factor')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    // base32 TOTP secret
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'bigint', (c) => c.notNull().defaultTo(0))
    // the last 30-second step accepted: a code is never accepted twice
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON array of SHA-256 hex digests of the unused recovery codes
    .addColumn('recovery', 'text')
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('two_factor').ifExists().execute();
  await db.schema.dropIndex('idx_users_linuxdo_id').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('linuxdo_id').execute();
}
