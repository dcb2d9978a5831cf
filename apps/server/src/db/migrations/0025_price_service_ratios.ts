import type { Kysely } from 'kysely';

/**
 * Per-model service-class multipliers: JSON text `{flex?, priority?, scale?, batch?, fast?}`
 * (service_tier values and Anthropic fast mode); NULL means every class bills ×1.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prices').addColumn('service_ratios', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prices').dropColumn('service_ratios').execute();
}
