import { sql } from 'kysely';
import type { Db } from '../index.js';
import { STAT_SUMS } from './rollup-rows.js';

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

/**
 * Roll-up sums per day and per channel, model or model owner between two days, grouped in the
 * database: the answer has one row per day and label drawn. Over all users it reads the day ×
 * channel × model totals (their size does not grow with the users), for one user that user's rows
 * of the daily roll-up. Labels are joined after grouping (a channel's name, a model's owner name).
 */
export function periodUsage(db: Db, from: string, to: string, groupType: 'model' | 'model_type' | 'channel', userId = 0) {
  return periodUsageQuery(db, from, to, groupType, userId).execute();
}

/** The query of periodUsage (exported for the query-plan test). */
export function periodUsageQuery(db: Db, from: string, to: string, groupType: 'model' | 'model_type' | 'channel', userId = 0) {
  const columns = ['date', 'channel_id', 'model_name', ...STAT_SUMS] as const;
  const source = userId ? db.selectFrom('statistics').select(columns).where('user_id', '=', userId).as('s') : db.selectFrom('statistics_totals').select(columns).as('s');
  const base = db.selectFrom(source).where('s.date', '>=', from).where('s.date', '<=', to);
  const sums = STAT_SUMS.map((c) => `g.${c}` as const);
  if (groupType === 'channel') {
    const grouped = base
      .select((eb) => ['s.date', 's.channel_id', ...STAT_SUMS.map((c) => eb.fn.sum<number>(`s.${c}`).as(c))])
      .groupBy(['s.date', 's.channel_id'])
      .as('g');
    return db
      .selectFrom(grouped)
      .leftJoin('channels', 'channels.id', 'g.channel_id')
      .select(['g.date', 'g.channel_id', sql<string>`''`.as('model_name'), 'channels.name as channel_name', sql<string | null>`null`.as('owner_name'), ...sums]);
  }
  const grouped = base
    .select((eb) => ['s.date', 's.model_name', ...STAT_SUMS.map((c) => eb.fn.sum<number>(`s.${c}`).as(c))])
    .groupBy(['s.date', 's.model_name'])
    .as('g');
  return db
    .selectFrom(grouped)
    .leftJoin('prices', 'prices.model', 'g.model_name')
    .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
    .select(['g.date', 'g.model_name', sql<number>`0`.as('channel_id'), sql<string | null>`null`.as('channel_name'), 'model_owned_by.name as owner_name', ...sums]);
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
