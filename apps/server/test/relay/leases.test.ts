import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';
import { LEASE_KIND, takeLease } from '../../src/db/repos/quota-leases.js';

/** Quota and used quota of a user, and what leases still hold of the balance. */
async function books(server: TestServer, userId: number) {
  const user = await server.ctx.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
  const leases = await server.ctx.db.selectFrom('quota_leases').select('amount').where('owner_kind', '=', 1).where('owner_id', '=', userId).execute();
  return { ...user, leased: leases.reduce((s, l) => s + Number(l.amount), 0) };
}

const ask = (client: OpenAI, extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], ...extra }).then(
    () => 'served',
    (e: { status?: number }) => String(e.status),
  );

describe.each(testDialects())('quota holds cover the worst case (%s)', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.addChannel({ key: 'lease-key' });
    await f.setOption('DefaultMaxOutputTokens', 2000);
  });
  afterAll(() => f?.close());

  it('never spends more than the budget when requests set no max_tokens (pitfall: overspend)', async () => {
    // Each call costs 1 201 (10 prompt + 1 191 completion at 1 quota a token); 50 of them would cost 60 050.
    f.fake.behave('lease-key', { usage: { prompt: 10, completion: 1191 }, delayMs: 100 });
    const { userId, key } = await f.newUser({ quota: 30_000 });
    const client = f.openai(key);
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => ask(client)));
    await f.flush();
    const served = outcomes.filter((o) => o === 'served').length;
    expect(outcomes.filter((o) => o !== 'served').every((o) => o === '402')).toBe(true);
    expect(served).toBeGreaterThan(0);
    expect(served * 1201).toBeLessThanOrEqual(30_000);
    const b = await books(f.server, userId);
    expect(b).toEqual({ quota: 30_000 - served * 1201, used_quota: served * 1201, request_count: served, leased: 0 });
  });

  it('bills an upstream that reports absurd usage at the bounds and flags the log row', async () => {
    f.fake.behave('lease-key', { usage: { prompt: 10, completion: 1e12 } });
    const { userId, key } = await f.newUser({ quota: 50_000 });
    expect(await ask(f.openai(key), { max_tokens: 100 })).toBe('served');
    await f.flush();
    const b = await books(f.server, userId);
    expect(b.used_quota).toBe(110);
    expect(b.quota).toBe(50_000 - 110);
    const row = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(row.completion_tokens).toBe(100);
    expect(JSON.parse(row.metadata!).usage_capped).toEqual({ completion_tokens: 1e12 });
  });

  it('charges a request upstream counted more prompt for than the hold covered in full from the balance, never below zero', async () => {
    // The hold covers the local prompt estimate + 5; upstream counts 5 000 prompt tokens (inside the bound of 8× the estimate + 65 536).
    f.fake.behave('lease-key', { usage: { prompt: 5000, completion: 1 } });
    for (const [start, billed] of [[1_000_000, 5001], [2_000, 2_000]]) {
      const { userId, key } = await f.newUser({ quota: start });
      expect(await ask(f.openai(key), { max_tokens: 5 })).toBe('served');
      await expect.poll(async () => (await f.flush(), (await books(f.server, userId)).used_quota)).toBe(billed);
      await relayState(f.server.ctx).leases.settleUp();
      expect(await books(f.server, userId)).toEqual({ quota: start - billed, used_quota: billed, request_count: 1, leased: 0 });
      const row = await f.server.ctx.db.selectFrom('logs').select(['quota', 'metadata']).where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
      expect(row.quota).toBe(billed);
      expect(JSON.parse(row.metadata!).uncovered_cost).toBe(billed === 5001 ? undefined : 5001);
    }
  });

  it('refuses a request whose worst case the balance cannot cover, or lowers max_tokens when the option says so', async () => {
    f.fake.behave('lease-key', {});
    const { userId, key } = await f.newUser({ quota: 900 });
    const client = f.openai(key);
    expect(await ask(client)).toBe('402');
    await f.setOption('LowerMaxTokensToBalance', true);
    try {
      const before = f.fake.forKey('lease-key').length;
      expect(await ask(client)).toBe('served');
      const sent = f.fake.forKey('lease-key')[before].body;
      expect(sent.max_tokens).toBeGreaterThanOrEqual(16);
      expect(sent.max_tokens).toBeLessThan(900);
      await f.flush();
      const row = await f.server.ctx.db.selectFrom('logs').select('metadata').where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
      expect(JSON.parse(row.metadata!).lowered_max_tokens).toBe(sent.max_tokens);
    } finally {
      await f.setOption('LowerMaxTokensToBalance', false);
    }
  });

  it('returns idle slices, so the balance column is exact once the node is quiet', async () => {
    f.fake.behave('lease-key', {});
    const { userId, key } = await f.newUser({ quota: 100_000 });
    expect(await ask(f.openai(key), { max_tokens: 50 })).toBe('served');
    await relayState(f.server.ctx).recorder.flush();
    // While the node serves, a slice is out of the balance column and recorded as a lease row.
    const during = await books(f.server, userId);
    expect(during.leased).toBeGreaterThan(0);
    expect(during.quota + during.leased + during.used_quota).toBe(100_000);
    await relayState(f.server.ctx).leases.settleUp();
    const after = await books(f.server, userId);
    expect(after).toMatchObject({ quota: 100_000 - after.used_quota, leased: 0 });
  });

  it('serves a burst of holds on a fresh slice in full when the balance covers them all (no spurious 402)', async () => {
    // 60 holds arrive together before any slice exists (a node's first burst, or one after idle):
    // the slice taken for them covers every hold waiting, not only the few recent demand sized it for.
    const { userId } = await f.newUser({ quota: 100_000 });
    const leases = relayState(f.server.ctx).leases;
    const holds = await Promise.all(Array.from({ length: 60 }, () => leases.hold(userId, 0, false, 1_000)));
    expect(holds.filter((h) => typeof h === 'string')).toEqual([]);
    for (const h of holds) if (typeof h !== 'string') leases.settle(h, 0);
    await leases.settleUp();
    expect(await books(f.server, userId)).toMatchObject({ quota: 100_000, leased: 0 });
  });

  it('shares a scarce balance: a slice takes what it needs and half of the rest, so another node still finds some', async () => {
    const { userId } = await f.newUser({ quota: 2_000 });
    const expires = Math.floor(Date.now() / 1000) + 60;
    // Node A wants a slice of 4 000 for a hold of 100: it gets 100 + 950, not all 2 000.
    const a = await takeLease(f.server.ctx.db, LEASE_KIND.user, userId, undefined, 'node-a', 100, 4_000, expires);
    expect(a.taken).toBe(1_050);
    // Node B, asking for a hold of 900 next, is served from what is left.
    const b = await takeLease(f.server.ctx.db, LEASE_KIND.user, userId, undefined, 'node-b', 900, 4_000, expires);
    expect(b.taken).toBe(925);
    // A need larger than what is left gets nothing; a want that fits is taken whole.
    expect((await takeLease(f.server.ctx.db, LEASE_KIND.user, userId, a.rowId, 'node-a', 100, 4_000, expires)).taken).toBe(0);
    expect((await takeLease(f.server.ctx.db, LEASE_KIND.user, userId, a.rowId, 'node-a', 10, 20, expires)).taken).toBe(20);
    expect(await books(f.server, userId)).toMatchObject({ quota: 5, leased: 1_995 });
  });

  it('gives a lease of a node that stopped renewing it back to the balance once it expires', async () => {
    const { userId } = await f.newUser({ quota: 10_000 });
    await f.server.ctx.db.updateTable('users').set({ quota: 6_000 }).where('id', '=', userId).execute();
    await f.server.ctx.db.insertInto('quota_leases').values({ node: 'crashed', owner_kind: 1, owner_id: userId, amount: 4_000, created_at: 1, expires_at: 2 }).execute();
    expect(await relayState(f.server.ctx).leases.reclaim()).toBeGreaterThanOrEqual(1);
    expect(await books(f.server, userId)).toMatchObject({ quota: 10_000, leased: 0 });
    // A second reclaim (another node racing) gives nothing twice.
    await relayState(f.server.ctx).leases.reclaim();
    expect(await books(f.server, userId)).toMatchObject({ quota: 10_000, leased: 0 });
  });
});

/** Issue "billing at scale": two nodes on one PostgreSQL database and one Redis. */
describe.skipIf(!redisAvailable() || !testDialects().includes('postgres'))('two nodes share balances without overspend (postgres + redis)', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  beforeAll(async () => {
    a = await relayFixture('postgres', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `leases:${Date.now()}:` });
    b = await startTestServer('postgres', { reuse: a.server, env: { BATCH_FLUSH_MS: '60000' } });
    bUrl = await b.listen();
    await a.addChannel({ key: 'two-node-key' });
    await relayState(b.ctx).selector.reload();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const flushBoth = async () => {
    for (const s of [a.server, b]) await relayState(s.ctx).recorder.flush();
    for (const s of [a.server, b]) await relayState(s.ctx).leases.settleUp();
  };

  it('serves a user worth 10 calls at most 10 times across both nodes, and the books balance', async () => {
    // Each call holds 1 000 output tokens plus its prompt; slow answers keep every hold in flight at once.
    a.fake.behave('two-node-key', { usage: { prompt: 10, completion: 990 }, delayMs: 300 });
    const { userId, key } = await a.newUser({ quota: 10_200 });
    const clients = [a.openai(key), new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 })];
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(clients[i % 2], { max_tokens: 1000 })));
    const served = outcomes.filter((o) => o === 'served').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(10);
    await flushBoth();
    expect(await books(a.server, userId)).toEqual({ quota: 10_200 - served * 1000, used_quota: served * 1000, request_count: served, leased: 0 });
  });

  it('lets a top-up made on one node serve requests on the other at once', async () => {
    a.fake.behave('two-node-key', {});
    const { userId, key } = await a.newUser({ quota: 100 });
    const onB = new OpenAI({ apiKey: key, baseURL: `${bUrl}/v1`, maxRetries: 0 });
    expect(await ask(onB, { max_tokens: 500 })).toBe('402');
    await a.root.post(`/api/user/quota/${userId}`, { quota: 5_000 });
    expect(await ask(onB, { max_tokens: 500 })).toBe('served');
    // An admin's deduction ends the leases on every node: node B cannot spend what was taken away.
    await a.root.post(`/api/user/quota/${userId}`, { quota: -(await books(a.server, userId)).quota - (await books(a.server, userId)).leased });
    await expect.poll(() => ask(onB, { max_tokens: 500 }), { timeout: 3000 }).toBe('402');
  });
});
