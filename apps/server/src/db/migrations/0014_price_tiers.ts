import type { Kysely } from 'kysely';

/**
 * Long-context price tiers: JSON text `[{above, input, output, extra_ratios?}]` ascending by
 * `above` (prompt tokens); NULL means one price for every prompt size.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prices').addColumn('tiers', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prices').dropColumn('tiers').execute();
}
