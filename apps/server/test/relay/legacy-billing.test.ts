import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

describe.each(testDialects())('legacy billing emulation on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
  });
  afterAll(async () => f?.close());

  const get = async (path: string, key: string) => {
    const res = await fetch(`${f.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('answers a limited token with its own budget and expiry, in currency', async () => {
    const expiry = 4102444800;
    const { key, tokenId } = await f.newUser({ token: { unlimited_quota: false, remain_quota: 400_000, expired_time: expiry } });
    await f.server.ctx.db.updateTable('tokens').set({ used_quota: 100_000 }).where('id', '=', tokenId).execute();
    for (const prefix of ['', '/v1']) {
      const sub = await get(`${prefix}/dashboard/billing/subscription`, key);
      expect(sub).toEqual({
        status: 200,
        body: { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: 1, hard_limit_usd: 1, system_hard_limit_usd: 1, access_until: expiry },
      });
      expect(await get(`${prefix}/dashboard/billing/usage`, key)).toEqual({ status: 200, body: { object: 'list', total_usage: 20 } });
    }
  });

  it('answers an unlimited token with its owner balance and no expiry; raw quota when currency display is off', async () => {
    const { key, userId } = await f.newUser({ quota: 750_000 });
    await f.server.ctx.db.updateTable('users').set({ used_quota: 250_000 }).where('id', '=', userId).execute();
    const sub = await get('/v1/dashboard/billing/subscription', key);
    expect(sub.body).toMatchObject({ hard_limit_usd: 2, access_until: 0 });
    expect((await get('/v1/dashboard/billing/usage', key)).body.total_usage).toBe(50);
    await f.setOption('DisplayInCurrencyEnabled', false);
    try {
      expect((await get('/dashboard/billing/subscription', key)).body.hard_limit_usd).toBe(1_000_000);
      expect((await get('/dashboard/billing/usage', key)).body.total_usage).toBe(25_000_000);
    } finally {
      await f.setOption('DisplayInCurrencyEnabled', true);
    }
  });

  it('rejects a bad or disabled key with an OpenAI-shaped 401', async () => {
    const bad = await get('/v1/dashboard/billing/subscription', `sk-${'x'.repeat(48)}`);
    expect(bad.status).toBe(401);
    expect(bad.body.error.message).toMatch(/^无效的令牌 \(request id: .+\)$/);
    const { key, tokenId, client } = await f.newUser();
    await client.put('/api/token/?status_only=1', { id: tokenId, status: 2 });
    const disabled = await get('/dashboard/billing/usage', key);
    expect(disabled.status).toBe(401);
    expect(disabled.body.error.message).toContain('令牌状态不可用');
  });
});
