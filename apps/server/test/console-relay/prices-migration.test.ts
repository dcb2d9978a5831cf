import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../harness.js';
import { up } from '../../src/db/migrations/0002_prices_unique_model.js';

describe.each(testDialects())('migration 0002 (one price per model) on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server?.destroy());

  it('collapses duplicate price rows, then refuses new duplicates', async () => {
    const db = server.ctx.db;
    // Back to the 0001 state, where duplicates were possible.
    await sql.raw(dialect === 'mysql' ? 'DROP INDEX idx_prices_model_unique ON prices' : 'DROP INDEX idx_prices_model_unique').execute(db);
    await db.insertInto('prices').values([
      { model: 'dup', type: 'tokens', input: 1, output: 1 },
      { model: 'dup', type: 'tokens', input: 2, output: 2 },
      { model: 'dup', type: 'tokens', input: 3, output: 3 },
    ]).execute();
    const before = await db.selectFrom('prices').select('model').execute();
    await up(db);
    const rows = await db.selectFrom('prices').selectAll().where('model', '=', 'dup').execute();
    expect(rows).toHaveLength(1);
    expect((await db.selectFrom('prices').select('model').execute()).length).toBe(before.length - 2);
    await expect(db.insertInto('prices').values({ model: 'dup', type: 'tokens', input: 1, output: 1 }).execute()).rejects.toThrow();
    await expect(db.insertInto('prices').values({ model: 'gpt-4o', type: 'tokens', input: 1, output: 1 }).execute()).rejects.toThrow();
  });
});
