import { sql, type RawBuilder } from 'kysely';
import { REST_SERIES } from '@one-hub/contract';
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

type PeriodGroup = 'model' | 'model_type' | 'channel';

/**
 * The keys a folded period keeps: channel ids, model names, or owner names ('' for models without an
 * owner), by grouping. Usage under any other key is summed into one REST_SERIES row per day.
 */
export type PeriodKeep = ReadonlyArray<number | string>;

/**
 * Roll-up sums per day and per channel, model or model owner between two days, grouped in the
 * database: the answer has one row per day and label drawn. Over all users it reads the day ×
 * channel × model totals (their size does not grow with the users), for one user that user's rows
 * of the daily roll-up. Labels are joined after grouping (a channel's name, a model's owner name).
 * With `keep`, the grouped rows are grouped once more with every key outside it mapped to
 * REST_SERIES, so at most `keep` + 1 rows a day leave the database.
 */
export function periodUsage(db: Db, from: string, to: string, groupType: PeriodGroup, userId = 0, keep?: PeriodKeep) {
  return periodUsageQuery(db, from, to, groupType, userId, keep).execute();
}

/** The roll-up rows of a day range: all users' totals, or one user's rows. */
function periodRows(db: Db, from: string, to: string, userId: number) {
  const columns = ['date', 'channel_id', 'model_name', ...STAT_SUMS] as const;
  const source = userId ? db.selectFrom('statistics').select(columns).where('user_id', '=', userId).as('s') : db.selectFrom('statistics_totals').select(columns).as('s');
  return db.selectFrom(source).where('s.date', '>=', from).where('s.date', '<=', to);
}

/** The query of periodUsage (exported for the query-plan test). */
export function periodUsageQuery(db: Db, from: string, to: string, groupType: PeriodGroup, userId = 0, keep?: PeriodKeep) {
  const labelled = labelledUsageQuery(db, from, to, groupType, userId);
  if (!keep) return labelled;
  // Each column is mapped in a derived table and grouped outside it: PostgreSQL would not match an
  // expression with parameters in GROUP BY to the same expression in the select list.
  const kept = (key: RawBuilder<unknown>) => sql`${key} in (${sql.join(keep.map((k) => sql`${k}`))})`;
  const owner = sql<string>`coalesce(u.owner_name, '')`;
  const mapped = db
    .selectFrom(labelled.as('u'))
    .select([
      'u.date',
      groupType === 'channel' ? sql<number | null>`case when ${kept(sql`u.channel_id`)} then u.channel_id end`.as('channel_id') : sql<number | null>`0`.as('channel_id'),
      groupType === 'model' ? sql<string>`case when ${kept(sql`u.model_name`)} then u.model_name else ${REST_SERIES} end`.as('model_name') : sql<string>`''`.as('model_name'),
      groupType === 'channel' ? sql<string | null>`case when ${kept(sql`u.channel_id`)} then u.channel_name else ${REST_SERIES} end`.as('channel_name') : sql<string | null>`null`.as('channel_name'),
      groupType === 'model_type' ? sql<string | null>`case when ${kept(owner)} then ${owner} else ${REST_SERIES} end`.as('owner_name') : sql<string | null>`null`.as('owner_name'),
      ...STAT_SUMS.map((c) => `u.${c}` as const),
    ])
    .as('m');
  return db
    .selectFrom(mapped)
    .select((eb) => ['m.date', 'm.model_name', 'm.channel_id', 'm.channel_name', 'm.owner_name', ...STAT_SUMS.map((c) => eb.fn.sum<number>(`m.${c}`).as(c))])
    .groupBy(['m.date', 'm.channel_id', 'm.model_name', 'm.channel_name', 'm.owner_name']);
}

/** Sums per day and channel (with its name) or per day and model (with its owner's name). */
function labelledUsageQuery(db: Db, from: string, to: string, groupType: PeriodGroup, userId: number) {
  const base = periodRows(db, from, to, userId);
  const sums = STAT_SUMS.map((c) => `g.${c}` as const);
  if (groupType === 'channel') {
    const grouped = base
      .select((eb) => ['s.date', 's.channel_id', ...STAT_SUMS.map((c) => eb.fn.sum<number>(`s.${c}`).as(c))])
      .groupBy(['s.date', 's.channel_id'])
      .as('g');
    return db
      .selectFrom(grouped)
      .leftJoin('channels', 'channels.id', 'g.channel_id')
      .select(['g.date', sql<string>`''`.as('model_name'), sql<number | null>`g.channel_id`.as('channel_id'), 'channels.name as channel_name', sql<string | null>`null`.as('owner_name'), ...sums]);
  }
  const grouped = base
    .select((eb) => ['s.date', 's.model_name', ...STAT_SUMS.map((c) => eb.fn.sum<number>(`s.${c}`).as(c))])
    .groupBy(['s.date', 's.model_name'])
    .as('g');
  return db
    .selectFrom(grouped)
    .leftJoin('prices', 'prices.model', 'g.model_name')
    .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
    .select(['g.date', 'g.model_name', sql<number | null>`0`.as('channel_id'), sql<string | null>`null`.as('channel_name'), 'model_owned_by.name as owner_name', ...sums]);
}

/**
 * Quota per channel or model over a day range (no day split): the few rows the top labels
 * of a folded period are chosen from. Channels carry their name, models their owner's.
 */
export function periodKeyTotals(db: Db, from: string, to: string, groupType: PeriodGroup, userId = 0) {
  const base = periodRows(db, from, to, userId);
  if (groupType === 'channel') {
    const grouped = base.select((eb) => ['s.channel_id', eb.fn.sum<number>('s.quota').as('quota')]).groupBy('s.channel_id').as('g');
    return db
      .selectFrom(grouped)
      .leftJoin('channels', 'channels.id', 'g.channel_id')
      .select(['g.channel_id', sql<string>`''`.as('model_name'), 'channels.name as channel_name', sql<string | null>`null`.as('owner_name'), 'g.quota'])
      .execute();
  }
  const grouped = base.select((eb) => ['s.model_name', eb.fn.sum<number>('s.quota').as('quota')]).groupBy('s.model_name').as('g');
  return db
    .selectFrom(grouped)
    .leftJoin('prices', 'prices.model', 'g.model_name')
    .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
    .select([sql<number>`0`.as('channel_id'), 'g.model_name', sql<string | null>`null`.as('channel_name'), 'model_owned_by.name as owner_name', 'g.quota'])
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
