import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

const tiered = { model: 'long-model', type: 'tokens', input: 1, output: 2, tiers: [{ above: 200_000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.25 } }] };

describe.each(testDialects())('long-context price tiers on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.addChannel({ key: 'tier-key', models: 'long-model' });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('saves tiers through the price API, shows them on the pricing list and refuses unordered ones', async () => {
    expect((await f.root.post('/api/prices/single', tiered)).body.success).toBe(true);
    const listed = (await new ApiClient(f.server.app).get('/api/prices')).body.data.find((p: { model: string }) => p.model === 'long-model');
    expect(listed.tiers).toEqual(tiered.tiers);
    const available = (await new ApiClient(f.server.app).get('/api/available_model')).body.data['long-model'];
    expect(available.price.tiers).toEqual(tiered.tiers);
    const bad = await f.root.post('/api/prices/single', { ...tiered, model: 'bad-tiers', tiers: [{ above: 10, input: 1, output: 1 }, { above: 5, input: 1, output: 1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('ascending');
    expect((await f.root.post('/api/prices/single', { ...tiered, model: 'bad-tiers', tiers: [{ above: 0, input: 1, output: 1 }] })).status).toBe(400);
  });

  it('bills a 250k-token prompt at the upper tier and a 1k prompt at the lower, and the log names the tier', async () => {
    const { key, userId } = await f.newUser({ quota: 10_000_000 });
    const sdk = f.openai(key);
    f.fake.behave('tier-key', { usage: { prompt: 250_000, completion: 10 } });
    await sdk.chat.completions.create({ model: 'long-model', max_tokens: 50, messages: [{ role: 'user', content: 'word '.repeat(250_000) }] });
    f.fake.behave('tier-key', { usage: { prompt: 1000, completion: 10 } });
    await sdk.chat.completions.create({ model: 'long-model', max_tokens: 50, messages: [{ role: 'user', content: 'word '.repeat(1000) }] });
    f.fake.behave('tier-key', {});
    await f.flush();
    const logs = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
    expect(logs.map((l) => l.quota)).toEqual([250_000 * 2 + 10 * 3, 1000 + 10 * 2]);
    expect(logs.map((l) => JSON.parse(l.metadata!).price_tier)).toEqual(['> 200000', '≤ 200000']);
    expect(JSON.parse(logs[0].metadata!)).toMatchObject({ input_ratio: 2, output_ratio: 3 });
    // The balance went down by exactly what the two rows say.
    const user = await f.server.ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.used_quota)).toBe(500_030 + 1020);
    expect(Number(user.quota)).toBe(10_000_000 - 501_050);
  });

  it('bills a long cached prompt with the upper tier\'s own cache ratio and a short one with the base\'s, exactly; the log shows the ratio', async () => {
    const cachedModel = { model: 'cache-tier-model', type: 'tokens', input: 1, output: 2, extra_ratios: { cached_tokens: 0.5 }, tiers: [{ above: 200_000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.1 } }] };
    expect((await f.root.post('/api/prices/single', cachedModel)).body.success).toBe(true);
    await f.addChannel({ key: 'cache-tier-key', models: 'cache-tier-model' });
    const { key, userId } = await f.newUser({ quota: 10_000_000 });
    const sdk = f.openai(key);
    f.fake.behave('cache-tier-key', { usage: { prompt: 250_000, completion: 10, cached: 40_000 } });
    await sdk.chat.completions.create({ model: 'cache-tier-model', max_tokens: 50, messages: [{ role: 'user', content: 'word '.repeat(250_000) }] });
    f.fake.behave('cache-tier-key', { usage: { prompt: 1000, completion: 10, cached: 400 } });
    await sdk.chat.completions.create({ model: 'cache-tier-model', max_tokens: 50, messages: [{ role: 'user', content: 'word '.repeat(1000) }] });
    await f.flush();
    const logs = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
    // Upper tier: 250000 − 40000 × (1 − 0.1) = 214000 input at 2, 10 output at 3. Base: 1000 − 400 × 0.5 = 800 at 1, 10 at 2.
    expect(logs.map((l) => l.quota)).toEqual([214_000 * 2 + 30, 800 + 20]);
    expect(logs.map((l) => JSON.parse(l.metadata!).extra_ratios)).toEqual([{ cached: 0.1 }, { cached: 0.5 }]);
    expect(logs.map((l) => l.cache_read_tokens)).toEqual([40_000, 400]);
    const user = await f.server.ctx.db.selectFrom('users').select('used_quota').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.used_quota)).toBe(428_030 + 820);
    const available = (await new ApiClient(f.server.app).get('/api/available_model')).body.data['cache-tier-model'];
    expect(available.price).toMatchObject({ extra_ratios: { cached_tokens: 0.5 }, tiers: [{ above: 200_000, extra_ratios: { cached_tokens: 0.1 } }] });
  });

  it('refuses a tier ratio for an unknown usage class or below zero', async () => {
    const unknown = await f.root.post('/api/prices/single', { ...tiered, model: 'bad-ratio', tiers: [{ above: 10, input: 1, output: 1, extra_ratios: { cached: 0.1 } }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('cached');
    const negative = await f.root.post('/api/prices/single', { ...tiered, model: 'bad-ratio', tiers: [{ above: 10, input: 1, output: 1, extra_ratios: { cached_read_tokens: -1 } }] });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toContain('must not be negative');
  });

  it('holds the dearest tier: a balance that covers the lower tier only is refused before upstream is called', async () => {
    const { key } = await f.newUser({ quota: 2500 });
    const calls = f.fake.forKey('tier-key').length;
    // About 1000 prompt tokens and 200 output: about 1500 at the base price, but 2000 + 600 at the top tier,
    // which the hold must cover since the prompt's real size is known only at settlement.
    const err = await f.openai(key).chat.completions.create({ model: 'long-model', max_tokens: 200, messages: [{ role: 'user', content: 'word '.repeat(1000) }] }).catch((e) => e);
    expect(err.status).toBe(402);
    expect(f.fake.forKey('tier-key').length).toBe(calls);
  });
});
