import type { Kysely } from 'kysely';

/**
 * TOTP secrets are stored sealed (AES-256-GCM, `enc1:` + base64url, about 70 characters), longer
 * than the plain base32 secret the column was sized for. SQLite does not enforce the length.
 * Plain rows are sealed by the server at start-up (it holds the key; a migration does not).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const name = db.getExecutor().adapter.constructor.name;
  if (name.startsWith('Postgres')) {
    await db.schema.alterTable('two_factor').alterColumn('secret', (c) => c.setDataType('varchar(255)')).execute();
  } else if (name.startsWith('Mysql')) {
    await db.schema.alterTable('two_factor').modifyColumn('secret', 'varchar(255)', (c) => c.notNull()).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(_db: Kysely<any>): Promise<void> {
  // Sealed secrets do not fit the old width; the wider column stays.
}
