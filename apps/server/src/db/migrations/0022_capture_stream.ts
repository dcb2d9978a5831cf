import type { Kysely } from 'kysely';

/**
 * Captures say whether the answer was a stream (SSE or Gemini's JSON array of chunks), so the
 * console labels it by this flag, not by how the text starts. Older rows: an answer that starts
 * with an SSE line was a stream (a captured JSON-array stream cannot be told from a body).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('log_captures').addColumn('stream', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db
    .updateTable('log_captures')
    .set({ stream: 1 })
    .where((eb) => eb.or([eb('response_body', 'like', 'data:%'), eb('response_body', 'like', 'event:%')]))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('log_captures').dropColumn('stream').execute();
}
