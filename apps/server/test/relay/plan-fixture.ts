import type { RelayFixture } from './fixture.js';

type Row = Record<string, any>;

/** A plan as the admin API takes it: Pro, monthly, a 5-hour window of 1000 covering `plan-model`. */
export const plan = (over: Row = {}) => ({
  name: 'Pro',
  price: 9.9,
  currency: 'USD',
  duration_kind: 'month',
  duration_count: 1,
  window_kind: '5h',
  window_quota: 1000,
  models: ['plan-model'],
  ...over,
});

/** Log rows of a user (type 2 consumption unless asked) after the recorder's flush, oldest first, with parsed metadata. */
export async function logsOf(f: RelayFixture, userId: number, type = 2): Promise<Row[]> {
  await f.flush();
  const rows = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', type).orderBy('id').execute();
  return rows.map((r) => ({ ...r, meta: JSON.parse(String(r.metadata ?? '{}')) }));
}

/** The time a spent window's 429 names, as its message writes it. */
export const resetIso = (end: number) => new Date(end * 1000).toISOString().replace('.000Z', 'Z');
