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

/** Roll-up rows between two days with the labels a series can be grouped by (channel name, model owner name). */
export function labelledUsage(db: Db, from: string, to: string, userId = 0) {
  let q = db
    .selectFrom('statistics')
    .leftJoin('channels', 'channels.id', 'statistics.channel_id')
    .leftJoin('prices', 'prices.model', 'statistics.model_name')
    .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
    .where('statistics.date', '>=', from)
    .where('statistics.date', '<=', to);
  if (userId) q = q.where('statistics.user_id', '=', userId);
  return q
    .select([
      'statistics.date',
      'statistics.model_name',
      'statistics.channel_id',
      'statistics.request_count',
      'statistics.quota',
      'statistics.prompt_tokens',
      'statistics.completion_tokens',
      'statistics.request_time',
      'channels.name as channel_name',
      'model_owned_by.name as owner_name',
    ])
    .execute();
}

const byUsername = (db: Db, usernames: string[], from: string, to: string) =>
  db
    .selectFrom('statistics')
    .innerJoin('users', 'users.id', 'statistics.user_id')
    .where('users.username', 'in', usernames)
    .where('statistics.date', '>=', from)
    .where('statistics.date', '<=', to);

/** Usage totals per username over a day range; users without usage are absent. */
export function usageTotalsByUsername(db: Db, usernames: string[], from: string, to: string) {
  return byUsername(db, usernames, from, to)
    .select((eb) => [
      'users.username',
      eb.fn.sum<number>('statistics.request_count').as('request_count'),
      eb.fn.sum<number>('statistics.quota').as('quota'),
      eb.fn.sum<number>('statistics.prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('statistics.completion_tokens').as('completion_tokens'),
      eb.fn.sum<number>('statistics.request_time').as('request_time'),
    ])
    .groupBy('users.username')
    .orderBy('users.username')
    .execute();
}

/** Request counts per username and model over a day range. */
export function modelUsageByUsername(db: Db, usernames: string[], from: string, to: string) {
  return byUsername(db, usernames, from, to)
    .select((eb) => ['users.username', 'statistics.model_name', eb.fn.sum<number>('statistics.request_count').as('request_count')])
    .groupBy(['users.username', 'statistics.model_name'])
    .execute();
}
