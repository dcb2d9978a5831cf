import type { Db } from '../index.js';

/** A user's daily usage per model between two 'YYYY-MM-DD' dates (inclusive). */
export function userDailyUsage(db: Db, userId: number, from: string, to: string) {
  return db
    .selectFrom('statistics')
    .select((eb) => [
      'date',
      'model_name',
      eb.fn.sum<number>('request_count').as('request_count'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
      eb.fn.sum<number>('request_time').as('request_time'),
    ])
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .groupBy(['date', 'model_name'])
    .orderBy('date')
    .orderBy('model_name')
    .execute();
}
