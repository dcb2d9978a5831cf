import type { Kysely } from 'kysely';

/**
 * Async tasks paid by a subscription plan (issue 21.1): the subscription, the window start and
 * the amount the window paid, so a task that fails later gives it back to that window (its
 * `quota` column stays what the balance paid: 0 for a plan-paid task).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema.alterTable(table).addColumn('subscription_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('plan_window', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('plan_quota', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    for (const column of ['subscription_id', 'plan_window', 'plan_quota']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
