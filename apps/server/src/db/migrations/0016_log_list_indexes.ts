import type { Kysely } from 'kysely';

/**
 * Log lists at millions of rows (issue 25): an index for each console filter that also yields the time order
 * (newest first, `id` breaking ties, so a page ends where the next begins), one for the quota sort,
 * and the ones of 0001 they replace dropped (each index costs every log write); retention's deletes
 * by type and age use idx_logs_type_time.
 */
export const LOG_LIST_INDEXES: Array<[string, string[]]> = [
  ['idx_logs_time', ['created_at', 'id']],
  ['idx_logs_type_time', ['type', 'created_at', 'id']],
  // `type` last: the type tab (and a user's own rows, which leave error rows out) counts from the index alone.
  ['idx_logs_user_time', ['user_id', 'created_at', 'id', 'type']],
  ['idx_logs_username_time', ['username', 'created_at', 'id', 'type']],
  ['idx_logs_token_name_time', ['token_name', 'created_at', 'id', 'type']],
  ['idx_logs_model_time', ['model_name', 'created_at', 'id', 'type']],
  ['idx_logs_channel_time', ['channel_id', 'created_at', 'id', 'type']],
  ['idx_logs_source_ip_time', ['source_ip', 'created_at', 'id', 'type']],
  ['idx_logs_quota', ['quota', 'id']],
];

/** Indexes of 0001 that the ones above cover. */
export const SUPERSEDED_LOG_INDEXES = [
  'idx_logs_created_at_type',
  'idx_logs_type_created_at',
  'idx_logs_user_id_created_at',
  'idx_logs_model_name_username',
  'idx_logs_token_name',
  'idx_logs_channel_id',
  'idx_logs_username',
];

/**
 * Analytics over a period groups the roll-up by day and channel (or model): with every summed column in
 * the index the database reads the index alone, in day and channel order, instead of a table row per key.
 */
export const STATISTICS_PERIOD_INDEX: [string, string[]] = [
  'idx_statistics_period',
  ['date', 'channel_id', 'model_name', 'request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(STATISTICS_PERIOD_INDEX[0]).ifNotExists().on('statistics').columns(STATISTICS_PERIOD_INDEX[1]).execute();
  for (const [name, columns] of LOG_LIST_INDEXES) await db.schema.createIndex(name).ifNotExists().on('logs').columns(columns).execute();
  const mysql = db.getExecutor().adapter.constructor.name.startsWith('Mysql');
  for (const name of SUPERSEDED_LOG_INDEXES) {
    // MySQL names indexes per table (DROP INDEX … ON) and has no DROP INDEX IF EXISTS.
    await (mysql ? db.schema.dropIndex(name).on('logs') : db.schema.dropIndex(name).ifExists()).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const mysql = db.getExecutor().adapter.constructor.name.startsWith('Mysql');
  const old: Array<[string, string[]]> = [
    ['idx_logs_created_at_type', ['created_at', 'type']],
    ['idx_logs_type_created_at', ['type', 'created_at']],
    ['idx_logs_user_id_created_at', ['user_id', 'created_at']],
    ['idx_logs_model_name_username', ['model_name', 'username']],
    ['idx_logs_token_name', ['token_name']],
    ['idx_logs_channel_id', ['channel_id']],
    ['idx_logs_username', ['username']],
  ];
  for (const [name, columns] of old) await db.schema.createIndex(name).ifNotExists().on('logs').columns(columns).execute();
  for (const [name] of LOG_LIST_INDEXES) await (mysql ? db.schema.dropIndex(name).on('logs') : db.schema.dropIndex(name).ifExists()).execute();
  await (mysql ? db.schema.dropIndex(STATISTICS_PERIOD_INDEX[0]).on('statistics') : db.schema.dropIndex(STATISTICS_PERIOD_INDEX[0]).ifExists()).execute();
}
