import { sql } from 'kysely';
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

const SUM_COLUMNS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;

/**
 * Roll-up sums per day and per channel, model or model owner between two days, grouped in the
 * database: the answer has one row per day and label drawn, whatever the number of roll-up rows.
 * Labels are joined after grouping (a channel's name, a model's owner name).
 */
export function periodUsage(db: Db, from: string, to: string, groupType: 'model' | 'model_type' | 'channel', userId = 0) {
  let base = db.selectFrom('statistics').where('statistics.date', '>=', from).where('statistics.date', '<=', to);
  if (userId) base = base.where('statistics.user_id', '=', userId);
  const sums = SUM_COLUMNS.map((c) => `g.${c}` as const);
  if (groupType === 'channel') {
    const grouped = base
      .select((eb) => ['statistics.date', 'statistics.channel_id', ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(`statistics.${c}`).as(c))])
      .groupBy(['statistics.date', 'statistics.channel_id'])
      .as('g');
    return db
      .selectFrom(grouped)
      .leftJoin('channels', 'channels.id', 'g.channel_id')
      .select(['g.date', 'g.channel_id', sql<string>`''`.as('model_name'), 'channels.name as channel_name', sql<string | null>`null`.as('owner_name'), ...sums])
      .execute();
  }
  const grouped = base
    .select((eb) => ['statistics.date', 'statistics.model_name', ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(`statistics.${c}`).as(c))])
    .groupBy(['statistics.date', 'statistics.model_name'])
    .as('g');
  return db
    .selectFrom(grouped)
    .leftJoin('prices', 'prices.model', 'g.model_name')
    .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
    .select(['g.date', 'g.model_name', sql<number>`0`.as('channel_id'), sql<string | null>`null`.as('channel_name'), 'model_owned_by.name as owner_name', ...sums])
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
