import { sql } from 'kysely';
import type { Db } from '../index.js';
import { dialectOf } from '../helpers.js';
import { transact } from '../retry.js';

const SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;

/** A user's bills, one row per month (the sum over models), ready for `paginate`. */
export function userMonthsQuery(db: Db, userId: number) {
  const perMonth = db
    .selectFrom('statistics_months')
    .select((eb) => ['date', ...SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('user_id', '=', userId)
    .groupBy('date');
  return db.selectFrom(perMonth.as('months')).selectAll();
}

export const INVOICE_ORDER_COLUMNS = ['date', ...SUMS] as const;

/** One user's bill lines of one month, per model. */
export function userMonthLines(db: Db, userId: number, month: string) {
  return db
    .selectFrom('statistics_months')
    .select(['date', 'model_name', ...SUMS])
    .where('user_id', '=', userId)
    .where('date', '=', month)
    .orderBy('model_name')
    .execute();
}

export async function monthGenerated(db: Db, month: string): Promise<boolean> {
  const row = await db.selectFrom('statistics_month_generated_histories').select('id').where('date', '=', month).executeTakeFirst();
  return row !== undefined;
}

/**
 * Rebuilds a month's bill from the daily roll-up (days `from` ≤ date < `until`), replacing
 * rows already there, and records the run. Answers how many bill rows were written.
 */
export async function buildMonth(db: Db, month: string, until: string, now: number): Promise<number> {
  const mysql = dialectOf(db) === 'mysql';
  return transact(db, async (tx) => {
    const rows = await tx
      .selectFrom('statistics')
      .select((eb) => ['user_id', 'model_name', ...SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
      .where('date', '>=', month)
      .where('date', '<', until)
      .groupBy(['user_id', 'model_name'])
      .execute();
    for (const r of rows) {
      const values = { date: month, user_id: r.user_id, model_name: r.model_name, ...Object.fromEntries(SUMS.map((c) => [c, Number(r[c])])) };
      const insert = tx.insertInto('statistics_months').values(values);
      if (mysql) await insert.onDuplicateKeyUpdate(Object.fromEntries(SUMS.map((c) => [c, sql`VALUES(${sql.ref(c)})`]))).execute();
      else await insert.onConflict((oc) => oc.columns(['date', 'user_id', 'model_name']).doUpdateSet(Object.fromEntries(SUMS.map((c) => [c, sql`excluded.${sql.ref(c)}`])))).execute();
    }
    await tx.insertInto('statistics_month_generated_histories').values({ date: month, count: rows.length, created_at: now }).execute();
    return rows.length;
  });
}
