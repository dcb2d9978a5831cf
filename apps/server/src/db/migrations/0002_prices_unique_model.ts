import { sql, type Kysely } from 'kysely';

/**
 * One price per model (api.md §8.2: the original allowed duplicate rows and
 * billed with whichever loaded last). Duplicates are collapsed to one row first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const dupes = await db
    .selectFrom('prices')
    .select('model')
    .groupBy('model')
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const { model } of dupes as Array<{ model: string }>) {
    const rows = await db.selectFrom('prices').selectAll().where('model', '=', model).execute();
    await db.deleteFrom('prices').where('model', '=', model).execute();
    await db.insertInto('prices').values(rows[rows.length - 1]).execute();
  }
  await db.schema.createIndex('idx_prices_model_unique').ifNotExists().on('prices').column('model').unique().execute();
}

