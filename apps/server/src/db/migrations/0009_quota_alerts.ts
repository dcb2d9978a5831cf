import type { Kysely } from 'kysely';

/**
 * Users' own low-balance alerts: the threshold (quota units, 0 = off), where to send them
 * ('email' or 'telegram'), and whether the current dip below the threshold was already told.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('quota_alert_threshold', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('quota_alert_channel', 'varchar(16)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('users').addColumn('quota_alert_sent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['quota_alert_threshold', 'quota_alert_channel', 'quota_alert_sent']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
