import type { Kysely } from 'kysely';

/**
 * Per-user session version: a session cookie names the version it was issued under,
 * and logout, a password change, a ban or a role change bump it, which ends every
 * older session of that user.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('session_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_version').execute();
}
