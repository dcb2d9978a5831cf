import type { Kysely } from 'kysely';

/**
 * The spending-cap windows an async task's charge was counted in (issue 31): a JSON array of
 * the shared store's window keys, so a task that fails later takes its refunded spend back out
 * of those windows while they are current. Null when no cap counted the charge (and on older rows).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) await db.schema.alterTable(table).addColumn('limit_windows', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) await db.schema.alterTable(table).dropColumn('limit_windows').execute();
}
