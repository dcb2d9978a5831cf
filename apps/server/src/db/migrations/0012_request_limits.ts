import type { Kysely } from 'kysely';

/**
 * Request limits (RPM, TPM, in flight, daily and monthly spending caps): a user's, set by an
 * admin, and a group's per model. JSON text; NULL means no limits. Tokens keep theirs in `setting`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('limits', 'text').execute();
  await db.schema.alterTable('user_groups').addColumn('model_limits', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_groups').dropColumn('model_limits').execute();
  await db.schema.alterTable('users').dropColumn('limits').execute();
}
