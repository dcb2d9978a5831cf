import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

describe.each(testDialects())('prices and owners on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
  });
  afterAll(async () => f?.close());

  it('serves seeded prices and owners publicly', async () => {
    const anon = new ApiClient(f.server.app);
    const prices = await anon.get('/api/prices');
    expect(prices.raw.headers['access-control-allow-origin']).toBe('*');
    expect(prices.body.data.find((p: { model: string }) => p.model === 'gpt-4o')).toMatchObject({ type: 'tokens', channel_type: 1 });
    expect((await anon.get('/api/prices?type=default')).body.data.length).toBeGreaterThan(20);
    expect((await anon.get('/api/prices?type=old')).status).toBe(400);
    const owners = (await anon.get('/api/ownedby')).body.data;
    expect(owners['14'].name).toBe('Anthropic');
  });

  it('bills with a price edited through the API at once', async () => {
    await f.addChannel({ key: 'price-key', models: 'priced-model' });
    expect((await f.root.post('/api/prices/single', { model: 'priced-model', type: 'times', input: 0.01 })).body.success).toBe(true);
    expect((await f.root.post('/api/prices/single', { model: 'priced-model', type: 'times', input: 1 })).status).toBe(409);
    expect((await f.root.post('/api/prices/single', { model: '*bad', type: 'tokens' })).status).toBe(400);
    const { key, userId } = await f.newUser({ quota: 10_000 });
    await f.openai(key).chat.completions.create({ model: 'priced-model', messages: [{ role: 'user', content: 'x' }] });
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.quota).toBe(10); // times price: 1000 × 0.01
    expect((await f.root.put('/api/prices/single/priced-model', { model: 'priced-model', type: 'times', input: 0.02 })).body.success).toBe(true);
    await f.openai(key).chat.completions.create({ model: 'priced-model', messages: [{ role: 'user', content: 'x' }] });
    await f.flush();
    const logs = await f.server.ctx.db.selectFrom('logs').select('quota').where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
    expect(logs.map((l) => l.quota)).toEqual([10, 20]);
  });

  it('lists available models per group with their price', async () => {
    const models = (await new ApiClient(f.server.app).get('/api/available_model')).body.data;
    expect(models['priced-model']).toMatchObject({ groups: ['default'], price: { type: 'times' } });
    expect(models['priced-model'].unpriced).toBeUndefined();
    // a model a channel serves without a price record says so (the console shows "no price set" to admins)
    await f.addChannel({ key: 'bare-key', models: 'bare-model' });
    const after = (await new ApiClient(f.server.app).get('/api/available_model')).body.data;
    expect(after['bare-model']).toMatchObject({ unpriced: true, owned_by: '未知', price: { channel_type: 0 } });
  });

  it('edits prices in batches and keeps owner ids above 1000 for custom owners', async () => {
    await f.root.post('/api/prices/multiple', { original_models: [], models: ['batch-a', 'batch-b'], price: { model: 'batch', type: 'tokens', input: 2, output: 3 } });
    const list = (await f.root.get('/api/prices')).body.data.filter((p: { model: string }) => p.model.startsWith('batch-'));
    expect(list).toHaveLength(2);
    await f.root.post('/api/prices/multiple', { original_models: ['batch-a', 'batch-b'], models: ['batch-b'], price: { model: 'batch', type: 'tokens', input: 1, output: 1 } });
    const after = (await f.root.get('/api/prices')).body.data.filter((p: { model: string }) => p.model.startsWith('batch-'));
    expect(after.map((p: { model: string; input: number }) => [p.model, p.input])).toEqual([['batch-b', 1]]);
    expect((await f.root.post('/api/model_ownedby/', { id: 5, name: 'x' })).status).toBe(400);
    expect((await f.root.post('/api/model_ownedby/', { id: 1001, name: 'In-house' })).body.success).toBe(true);
  });
});
