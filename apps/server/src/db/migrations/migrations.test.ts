import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, testDialects } from '../../../test/harness.js';
import { migrate } from '../index.js';

const TABLES = [
  'users', 'tokens', 'channels', 'options', 'redemptions', 'logs', 'prices', 'user_groups', 'payments', 'orders',
  'telegram_menus', 'midjourneys', 'tasks', 'statistics', 'statistics_months', 'statistics_month_generated_histories',
  'model_owned_by', 'model_info', 'webauthn_credentials',
];

describe.each(testDialects())('migrations on %s', (dialect) => {
  it('creates every table, round-trips rows and is idempotent', async () => {
    const server = await startTestServer(dialect);
    try {
      const { db } = server.ctx;
      const names = (await db.introspection.getTables()).map((t) => t.name);
      for (const table of TABLES) expect(names).toContain(table);

      await migrate(db, server.env.PG_SCHEMA); // second run is a no-op
      const big = 9_000_000_000; // beyond 32 bits: quota columns must not overflow
      await db.insertInto('users').values({ username: 'alice', password: 'x', quota: big }).execute();
      const user = await db.selectFrom('users').selectAll().where('username', '=', 'alice').executeTakeFirstOrThrow();
      expect(user.quota).toBe(big);
      expect(user.group).toBe('default');
      expect(user.role).toBe(1);
      expect(user.deleted_at).toBeNull();

      await db.insertInto('channels').values({ key: 'sk-x', name: 'c1', models: 'gpt-4o' }).execute();
      const channel = await db.selectFrom('channels').selectAll().executeTakeFirstOrThrow();
      expect(channel.weight).toBe(1);
      expect(channel.priority).toBe(0);
      expect(channel.status).toBe(1);
      expect(channel.balance).toBe(0);

      await db.insertInto('statistics').values({ date: '2026-01-01', user_id: 1, channel_id: 1, model_name: 'm' }).execute();
      await expect(
        db.insertInto('statistics').values({ date: '2026-01-01', user_id: 1, channel_id: 1, model_name: 'm' }).execute(),
      ).rejects.toThrow();
      const count = await sql<{ n: number }>`select count(*) as n from statistics`.execute(db);
      expect(Number(count.rows[0].n)).toBe(1);
    } finally {
      await server.destroy();
    }
  });
});
