import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Every table of api.md §1, portable across SQLite, PostgreSQL and MySQL/MariaDB.
 * Frozen once released: later changes go into new numbered files.
 *
 * - ids: integer autoincrement (SQLite), bigserial (PostgreSQL), bigint auto_increment (MySQL);
 * - integers are bigint everywhere (quota, counters, epoch seconds), booleans bigint 0/1;
 * - strings that are indexed or have a default are varchar (MySQL cannot index or default
 *   TEXT), at most 191 characters when indexed so a utf8mb4 key fits InnoDB's old 767-byte limit;
 * - MySQL tables are utf8mb4 whatever the database default (MariaDB < 11.6 defaults to latin1).
 */

type Dialect = 'sqlite' | 'postgres' | 'mysql';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Table = CreateTableBuilder<any, any>;

function dialectOf(db: Kysely<unknown>): Dialect {
  const name = db.getExecutor().adapter.constructor.name;
  if (name.startsWith('Postgres')) return 'postgres';
  if (name.startsWith('Mysql')) return 'mysql';
  return 'sqlite';
}

interface Cols {
  id(t: Table): Table;
  int(t: Table, name: string, def?: number | null): Table;
  float(t: Table, name: string, def?: number): Table;
  money(t: Table, name: string, def?: number): Table;
  /** def null: nullable without default; otherwise NOT NULL with def, or nullable with def when `nullable`. */
  str(t: Table, name: string, size: number, def?: string | null, nullable?: boolean): Table;
  text(t: Table, name: string, notNull?: boolean): Table;
}

function columns(d: Dialect): Cols {
  return {
    id: (t) =>
      d === 'postgres'
        ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
        : d === 'mysql'
          ? t.addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
          : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    int: (t, name, def = 0) => t.addColumn(name, 'bigint', (c) => (def === null ? c : c.notNull().defaultTo(def))),
    float: (t, name, def = 0) => t.addColumn(name, 'double precision', (c) => c.notNull().defaultTo(def)),
    money: (t, name, def = 0) => t.addColumn(name, sql.raw('decimal(12,2)'), (c) => c.notNull().defaultTo(def)),
    str: (t, name, size, def = '', nullable = false) =>
      t.addColumn(name, `varchar(${size})`, (c) =>
        def === null ? c : nullable ? c.defaultTo(def) : c.notNull().defaultTo(def),
      ),
    text: (t, name, notNull = false) => t.addColumn(name, 'text', (c) => (notNull ? c.notNull() : c)),
  };
}

type Spec = (c: Cols, t: Table) => Table;

const TABLES: Record<string, Spec> = {
  users: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'username', 64, null);
    t = c.text(t, 'password', true);
    t = c.str(t, 'display_name', 64);
    t = c.int(t, 'role', 1);
    t = c.int(t, 'status', 1);
    t = c.str(t, 'email', 128);
    t = c.str(t, 'avatar_url', 500);
    t = c.str(t, 'oidc_id', 191);
    t = c.str(t, 'github_id', 191);
    t = c.int(t, 'github_id_new', 0);
    t = c.str(t, 'wechat_id', 191);
    t = c.int(t, 'telegram_id', 0);
    t = c.str(t, 'lark_id', 191);
    t = c.str(t, 'access_token', 32, null);
    t = c.int(t, 'quota');
    t = c.int(t, 'used_quota');
    t = c.int(t, 'request_count');
    t = c.str(t, 'group', 32, 'default');
    t = c.str(t, 'aff_code', 32, null);
    t = c.int(t, 'aff_count');
    t = c.int(t, 'aff_quota');
    t = c.int(t, 'aff_history');
    t = c.int(t, 'inviter_id');
    t = c.int(t, 'aff_reward_paid');
    t = c.int(t, 'last_login_time');
    t = c.str(t, 'last_login_ip', 128);
    t = c.int(t, 'created_time');
    return c.int(t, 'deleted_at', null);
  },
  tokens: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'user_id', null);
    t = c.str(t, 'key', 64, null);
    t = c.int(t, 'status', 1);
    t = c.str(t, 'name', 64);
    t = c.int(t, 'created_time');
    t = c.int(t, 'accessed_time');
    t = c.int(t, 'expired_time', -1);
    t = c.int(t, 'remain_quota');
    t = c.int(t, 'unlimited_quota');
    t = c.int(t, 'used_quota');
    t = c.str(t, 'group', 32);
    t = c.str(t, 'backup_group', 32);
    t = c.text(t, 'setting');
    return c.int(t, 'deleted_at', null);
  },
  channels: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'type', 0);
    t = c.text(t, 'key', true);
    t = c.int(t, 'status', 1);
    t = c.str(t, 'name', 191);
    t = t.addColumn('weight', 'bigint', (col) => col.defaultTo(1));
    t = c.int(t, 'created_time');
    t = c.int(t, 'test_time');
    t = c.int(t, 'response_time');
    t = c.str(t, 'base_url', 500, '', true);
    t = c.text(t, 'other');
    t = c.float(t, 'balance');
    t = c.int(t, 'balance_updated_time');
    t = c.text(t, 'models');
    t = c.str(t, 'group', 191, 'default');
    t = c.str(t, 'tag', 64);
    t = c.int(t, 'used_quota');
    t = c.text(t, 'model_mapping');
    t = c.text(t, 'model_headers');
    t = c.text(t, 'custom_parameter');
    t = t.addColumn('priority', 'bigint', (col) => col.defaultTo(0));
    t = c.str(t, 'proxy', 255, '', true);
    t = c.str(t, 'test_model', 100);
    t = c.int(t, 'only_chat');
    t = c.int(t, 'pre_cost', 1);
    t = c.int(t, 'compatible_response');
    t = c.int(t, 'allow_extra_body');
    t = c.text(t, 'disabled_stream');
    t = c.text(t, 'plugin');
    t = c.text(t, 'disabled_reason');
    t = c.str(t, 'disabled_source', 16);
    return c.int(t, 'deleted_at', null);
  },
  options: (c, t) => {
    t = t.addColumn('key', 'varchar(191)', (col) => col.primaryKey());
    return c.text(t, 'value');
  },
  redemptions: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'user_id');
    t = c.str(t, 'key', 32, null);
    t = c.int(t, 'status', 1);
    t = c.str(t, 'name', 64);
    t = c.int(t, 'quota', 100);
    t = c.int(t, 'created_time');
    t = c.int(t, 'redeemed_time');
    return c.int(t, 'used_user_id');
  },
  logs: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'user_id');
    t = c.int(t, 'created_at');
    t = c.int(t, 'type');
    t = c.text(t, 'content');
    t = c.str(t, 'username', 64);
    t = c.str(t, 'token_name', 64);
    t = c.int(t, 'token_id');
    t = c.str(t, 'model_name', 191);
    t = c.int(t, 'quota');
    t = c.int(t, 'prompt_tokens');
    t = c.int(t, 'completion_tokens');
    t = c.int(t, 'cache_read_tokens');
    t = c.int(t, 'cache_write_tokens');
    t = c.int(t, 'reasoning_tokens');
    t = c.int(t, 'channel_id');
    t = c.int(t, 'request_time');
    t = c.int(t, 'is_stream');
    t = c.str(t, 'source_ip', 64);
    t = c.str(t, 'group', 32);
    t = c.str(t, 'request_id', 64);
    t = c.int(t, 'estimated');
    return c.text(t, 'metadata');
  },
  prices: (c, t) => {
    t = c.str(t, 'model', 100, null);
    t = c.str(t, 'type', 16, 'tokens');
    t = c.int(t, 'channel_type', 0);
    t = c.float(t, 'input');
    t = c.float(t, 'output');
    t = c.int(t, 'locked');
    return c.text(t, 'extra_ratios');
  },
  user_groups: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'symbol', 50, null);
    t = c.str(t, 'name', 50);
    // 4 decimals: the original's decimal(10,2) turns a 0.875 ratio into 0.88 (api.md §8.4).
    t = t.addColumn('ratio', sql.raw('decimal(12,4)'), (col) => col.notNull().defaultTo(1));
    t = c.int(t, 'api_rate', 600);
    t = c.int(t, 'public');
    t = c.int(t, 'promotion');
    t = c.int(t, 'min');
    t = c.int(t, 'max');
    return t.addColumn('enable', 'bigint', (col) => col.defaultTo(1));
  },
  payments: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'type', 16, null);
    t = c.str(t, 'uuid', 32, null);
    t = c.str(t, 'name', 255, null);
    t = c.str(t, 'icon', 300);
    t = c.str(t, 'notify_domain', 300);
    t = c.money(t, 'fixed_fee');
    t = t.addColumn('percent_fee', sql.raw('decimal(12,4)'), (col) => col.notNull().defaultTo(0));
    t = c.str(t, 'currency', 5, 'USD');
    t = c.text(t, 'config');
    t = c.int(t, 'sort', 1);
    t = t.addColumn('enable', 'bigint', (col) => col.defaultTo(1));
    t = c.int(t, 'created_at');
    t = c.int(t, 'updated_at');
    return c.int(t, 'deleted_at', null);
  },
  orders: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'user_id', null);
    t = c.int(t, 'gateway_id', null);
    t = c.str(t, 'trade_no', 50, null);
    t = c.str(t, 'gateway_no', 100);
    t = c.int(t, 'amount');
    t = c.money(t, 'order_amount');
    t = c.str(t, 'order_currency', 16);
    t = c.int(t, 'quota');
    t = c.money(t, 'fee');
    t = c.money(t, 'discount');
    t = c.str(t, 'status', 32, 'pending');
    t = c.int(t, 'created_at');
    t = c.int(t, 'updated_at');
    return c.int(t, 'deleted_at', null);
  },
  telegram_menus: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'command', 32, null);
    t = c.str(t, 'description', 255);
    t = c.str(t, 'parse_mode', 32, 'MarkdownV2');
    return c.text(t, 'reply_message');
  },
  midjourneys: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'code');
    t = c.int(t, 'user_id', null);
    t = c.str(t, 'action', 40);
    t = c.str(t, 'mj_id', 191);
    for (const name of ['prompt', 'prompt_en', 'description', 'state']) t = c.text(t, name);
    t = c.int(t, 'submit_time');
    t = c.int(t, 'start_time');
    t = c.int(t, 'finish_time');
    t = c.text(t, 'image_url');
    t = c.str(t, 'status', 20);
    t = c.str(t, 'progress', 30);
    t = c.text(t, 'fail_reason');
    t = c.int(t, 'channel_id');
    t = c.int(t, 'quota');
    for (const name of ['buttons', 'properties', 'mode']) t = c.text(t, name);
    return c.int(t, 'token_id');
  },
  tasks: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'created_at');
    t = c.int(t, 'updated_at');
    t = c.str(t, 'task_id', 191);
    t = c.str(t, 'platform', 30);
    t = c.int(t, 'user_id', null);
    t = c.int(t, 'channel_id');
    t = c.int(t, 'quota');
    t = c.str(t, 'action', 40);
    t = c.str(t, 'status', 20);
    t = c.text(t, 'fail_reason');
    t = c.int(t, 'submit_time');
    t = c.int(t, 'start_time');
    t = c.int(t, 'finish_time');
    t = c.int(t, 'progress');
    for (const name of ['properties', 'data', 'notify_hook']) t = c.text(t, name);
    return c.int(t, 'token_id');
  },
  statistics: (c, t) => {
    t = c.str(t, 'date', 10, null);
    t = c.int(t, 'user_id', 0);
    t = c.int(t, 'channel_id', 0);
    t = c.str(t, 'model_name', 191, '');
    for (const name of ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time']) t = c.int(t, name);
    return t.addPrimaryKeyConstraint('pk_statistics', ['date', 'user_id', 'channel_id', 'model_name']);
  },
  statistics_months: (c, t) => {
    t = c.str(t, 'date', 10, null);
    t = c.int(t, 'user_id', 0);
    t = c.str(t, 'model_name', 191, '');
    for (const name of ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time']) t = c.int(t, name);
    return t.addPrimaryKeyConstraint('pk_statistics_months', ['date', 'user_id', 'model_name']);
  },
  statistics_month_generated_histories: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'date', 10, null);
    t = c.int(t, 'count');
    return c.int(t, 'created_at');
  },
  model_owned_by: (c, t) => {
    t = t.addColumn('id', 'bigint', (col) => col.primaryKey());
    t = c.str(t, 'name', 100, null);
    return c.str(t, 'icon', 500);
  },
  model_info: (c, t) => {
    t = c.id(t);
    t = c.str(t, 'model', 100, null);
    t = c.str(t, 'name', 100);
    t = c.text(t, 'description');
    t = c.int(t, 'context_length');
    t = c.int(t, 'max_tokens');
    for (const name of ['input_modalities', 'output_modalities', 'tags', 'support_url']) t = c.text(t, name);
    t = c.int(t, 'created_at');
    return c.int(t, 'updated_at');
  },
  webauthn_credentials: (c, t) => {
    t = c.id(t);
    t = c.int(t, 'user_id', null);
    t = c.str(t, 'credential_id', 191, null);
    t = c.text(t, 'public_key');
    t = c.str(t, 'attestation_type', 64);
    t = c.str(t, 'alias', 255);
    t = c.int(t, 'backup_eligible');
    t = c.int(t, 'backup_state');
    t = c.str(t, 'aa_guid', 64);
    t = c.int(t, 'sign_count');
    t = c.int(t, 'clone_warning');
    t = c.str(t, 'attachment', 32);
    return c.int(t, 'created_time');
  },
};

/** [table, columns, unique] — every spec index plus one per list filter and dashboard query. */
export const INDEXES: Array<[string, string[], boolean?]> = [
  ['users', ['username'], true],
  ['users', ['access_token'], true],
  ['users', ['aff_code'], true],
  ['users', ['display_name']],
  ['users', ['email']],
  ['users', ['oidc_id']],
  ['users', ['github_id']],
  ['users', ['github_id_new']],
  ['users', ['wechat_id']],
  ['users', ['lark_id']],
  ['users', ['inviter_id']],
  ['users', ['deleted_at']],
  ['users', ['created_time']],
  ['tokens', ['key'], true],
  ['tokens', ['user_id']],
  ['tokens', ['name']],
  ['tokens', ['deleted_at']],
  ['channels', ['name']],
  ['channels', ['tag']],
  ['channels', ['status']],
  ['channels', ['type']],
  ['channels', ['deleted_at']],
  ['redemptions', ['key'], true],
  ['redemptions', ['name']],
  ['logs', ['created_at', 'type']],
  ['logs', ['type', 'created_at']],
  ['logs', ['user_id', 'created_at']],
  ['logs', ['model_name', 'username']],
  ['logs', ['token_name']],
  ['logs', ['channel_id']],
  ['logs', ['username']],
  ['prices', ['model']],
  ['user_groups', ['symbol'], true],
  ['payments', ['uuid'], true],
  ['payments', ['deleted_at']],
  ['orders', ['trade_no'], true],
  ['orders', ['user_id']],
  ['orders', ['gateway_id']],
  ['orders', ['created_at']],
  ['orders', ['deleted_at']],
  ['telegram_menus', ['command'], true],
  ['midjourneys', ['user_id']],
  ['midjourneys', ['action']],
  ['midjourneys', ['mj_id']],
  ['midjourneys', ['submit_time']],
  ['midjourneys', ['start_time']],
  ['midjourneys', ['finish_time']],
  ['midjourneys', ['status']],
  ['midjourneys', ['progress']],
  ['midjourneys', ['channel_id']],
  ['tasks', ['created_at']],
  ['tasks', ['task_id']],
  ['tasks', ['platform']],
  ['tasks', ['user_id']],
  ['tasks', ['channel_id']],
  ['tasks', ['action']],
  ['tasks', ['status']],
  ['tasks', ['submit_time']],
  ['tasks', ['start_time']],
  ['tasks', ['finish_time']],
  ['statistics', ['user_id', 'date']],
  ['statistics', ['channel_id', 'date']],
  ['statistics_months', ['user_id', 'date']],
  ['statistics_month_generated_histories', ['date']],
  ['model_info', ['model']],
  ['webauthn_credentials', ['user_id']],
  ['webauthn_credentials', ['credential_id'], true],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  const cols = columns(d);
  for (const [name, spec] of Object.entries(TABLES)) {
    let table = spec(cols, db.schema.createTable(name).ifNotExists());
    if (d === 'mysql') table = table.modifyEnd(sql`default character set utf8mb4`);
    await table.execute();
  }
  for (const [table, fields, unique] of INDEXES) {
    let index = db.schema.createIndex(`idx_${table}_${fields.join('_')}`).ifNotExists().on(table).columns(fields);
    if (unique) index = index.unique();
    await index.execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).ifExists().execute();
}
