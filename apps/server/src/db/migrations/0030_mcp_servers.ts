import { sql, type Kysely } from 'kysely';

/**
 * The MCP gateway (issue 40): upstream MCP servers an admin registers, and each token's MCP
 * allow list. `headers` and `auth` hold the credential the gateway sends, sealed (common/seal.ts)
 * and never returned; `header_names` is what the admin's view shows. `catalogue` is the last
 * refresh's tools, resources and prompts (JSON), stored so every node serves the same list.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  const pg = name.startsWith('Postgres');
  const mysql = name.startsWith('Mysql');
  const long = mysql ? sql.raw('longtext') : 'text';
  const id = pg ? 'bigserial' : mysql ? 'bigint' : 'integer';
  await db.schema
    .createTable('mcp_servers')
    .ifNotExists()
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('transport', 'varchar(16)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('header_names', 'text')
    .addColumn('headers', 'text')
    .addColumn('auth_type', 'varchar(32)', (c) => c.notNull().defaultTo('none'))
    .addColumn('auth', 'text')
    .addColumn('groups', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('price', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('timeout_ms', 'integer', (c) => c.notNull().defaultTo(30000))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('catalogue', long)
    .addColumn('protocol_version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_refresh_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('tokens').addColumn('mcp_tools', 'varchar(2048)', (c) => c.notNull().defaultTo('')).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('mcp_tools').execute();
  await db.schema.dropTable('mcp_servers').ifExists().execute();
}
