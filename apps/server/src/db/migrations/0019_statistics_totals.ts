import { sql, type Kysely } from 'kysely';

/**
 * Analytics over all users at scale (issue 25.3): `statistics_totals`, the daily roll-up summed over
 * users (one row per day, channel and model), written by the recorder with `statistics` in the same
 * transaction. It holds a row per day for each channel × model pair in use (the big-data bench's
 * 200 channels of 5 models: 90 000 rows for 90 days) whatever the number of users, where
 * `statistics` holds about one row per log row once traffic spreads over many users.
 * SQLite keeps it WITHOUT ROWID and MySQL clusters by the primary key, so the key order (day,
 * channel, model) reads the sums from the key's own pages for the by-channel view; a covering
 * (day, model, sums…) index gives the by-model views their order without a sort. PostgreSQL keeps
 * rows in a heap: a covering (day, channel, sums…) index does there what the clustered key does
 * elsewhere, and ndistinct statistics on (day, channel) and (day, model) tell the planner how many
 * groups to expect (it guessed half, and its hash aggregate spilled to disk).
 *
 * The covering `idx_statistics_period` of 0016 served the same reads from `statistics` and is
 * dropped: only per-user reads remain there (a user's analytics and dashboard, the multi-user
 * statistics). The `(user_id, date)` index of 0001 they go by becomes a covering one, so a heavy
 * user's 90 days (tens of thousands of rows) read from the index alone.
 */

/** The index of 0001 replaced by USER_PERIOD_INDEX. */
const USER_DATE_INDEX: [string, string[]] = ['idx_statistics_user_id_date', ['user_id', 'date']];

const SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
const KEYS = ['date', 'channel_id', 'model_name'] as const;
export const TOTALS_MODEL_INDEX: [string, string[]] = ['idx_statistics_totals_model', ['date', 'model_name', ...SUMS]];
/** PostgreSQL only (see above). */
export const TOTALS_CHANNEL_INDEX: [string, string[]] = ['idx_statistics_totals_channel', ['date', 'channel_id', ...SUMS]];
export const USER_PERIOD_INDEX: [string, string[]] = ['idx_statistics_user_period', ['user_id', ...KEYS, ...SUMS]];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const kind = (db: AnyDb) => {
  const name = db.getExecutor().adapter.constructor.name;
  return name.startsWith('Postgres') ? 'postgres' : name.startsWith('Mysql') ? 'mysql' : 'sqlite';
};

/**
 * Sets `statistics_totals` to `statistics` summed per day, channel and model: one INSERT … SELECT …
 * GROUP BY (the migration's backfill; the big-data seeder runs it again after loading `statistics`).
 */
export async function fillStatisticsTotals(db: AnyDb): Promise<void> {
  await db.deleteFrom('statistics_totals').execute();
  await db
    .insertInto('statistics_totals')
    .columns([...KEYS, ...SUMS])
    .expression(
      db
        .selectFrom('statistics')
        .select((eb) => [...KEYS, ...SUMS.map((c) => eb.fn.sum(c).as(c))])
        .groupBy([...KEYS]),
    )
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  const d = kind(db);
  let table = db.schema
    .createTable('statistics_totals')
    .ifNotExists()
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('model_name', 'varchar(191)', (c) => c.notNull().defaultTo(''));
  for (const name of SUMS) table = table.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
  table = table.addPrimaryKeyConstraint('pk_statistics_totals', [...KEYS]);
  if (d === 'sqlite') table = table.modifyEnd(sql`without rowid`);
  if (d === 'mysql') table = table.modifyEnd(sql`default character set utf8mb4`);
  await table.execute();
  await db.schema.createIndex(TOTALS_MODEL_INDEX[0]).ifNotExists().on('statistics_totals').columns(TOTALS_MODEL_INDEX[1]).execute();
  if (d === 'postgres') {
    await db.schema.createIndex(TOTALS_CHANNEL_INDEX[0]).ifNotExists().on('statistics_totals').columns(TOTALS_CHANNEL_INDEX[1]).execute();
    await sql`CREATE STATISTICS IF NOT EXISTS st_statistics_totals_channel (ndistinct) ON date, channel_id FROM statistics_totals`.execute(db);
    await sql`CREATE STATISTICS IF NOT EXISTS st_statistics_totals_model (ndistinct) ON date, model_name FROM statistics_totals`.execute(db);
  }
  // Before the index goes: it yields `statistics` in (date, channel_id, model_name) order with every sum.
  await fillStatisticsTotals(db);
  await dropIndex(db, 'idx_statistics_period');
  await db.schema.createIndex(USER_PERIOD_INDEX[0]).ifNotExists().on('statistics').columns(USER_PERIOD_INDEX[1]).execute();
  await dropIndex(db, USER_DATE_INDEX[0]);
  if (d === 'postgres') await sql`ANALYZE statistics_totals`.execute(db);
}

// MySQL names indexes per table (DROP INDEX … ON) and has no DROP INDEX IF EXISTS.
const dropIndex = (db: AnyDb, name: string) =>
  (kind(db) === 'mysql' ? db.schema.dropIndex(name).on('statistics') : db.schema.dropIndex(name).ifExists()).execute();

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex(USER_DATE_INDEX[0]).ifNotExists().on('statistics').columns(USER_DATE_INDEX[1]).execute();
  await dropIndex(db, USER_PERIOD_INDEX[0]);
  await db.schema
    .createIndex('idx_statistics_period')
    .ifNotExists()
    .on('statistics')
    .columns(['date', 'channel_id', 'model_name', ...SUMS])
    .execute();
  await db.schema.dropTable('statistics_totals').ifExists().execute();
}
