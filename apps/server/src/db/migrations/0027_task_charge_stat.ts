import type { Kysely } from 'kysely';

/**
 * Where an async task's charge was counted in the daily roll-ups (issue 38 point 5): a JSON
 * `{date, model_name}` (the consumption row's UTC day and model), so a task that fails later takes
 * its refund back out of the same `statistics` / `statistics_totals` rows and the charts sum net.
 * Null when no consumption row counted the charge (and on older rows, which stay gross).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) await db.schema.alterTable(table).addColumn('charge_stat', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) await db.schema.alterTable(table).dropColumn('charge_stat').execute();
}
