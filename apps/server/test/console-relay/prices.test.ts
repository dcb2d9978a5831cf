import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;

describe.each(testDialects())('prices, owners and model info on %s', (dialect) => {
  let f: ConsoleFixture;
  let user: TestUser;
  const price = async (model: string): Promise<Row | undefined> =>
    ((await f.root.get('/api/prices')).body.data as Row[]).find((p) => p.model === model);

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    user = await f.newUser();
  });
  afterAll(async () => f?.close());

  it('serves the seeded price table publicly, sorted by owner then model, and the defaults', async () => {
    const anon = new ApiClient(f.server.app);
    const res = await anon.get('/api/prices');
    expect(res.raw.headers['access-control-allow-origin']).toBe('*');
    const rows = res.body.data as Row[];
    expect(rows.find((p) => p.model === 'gpt-4o')).toMatchObject({ type: 'tokens', channel_type: 1, locked: false });
    const keys = rows.map((p) => [p.channel_type, p.model]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)));
    const defaults = (await anon.get('/api/prices?type=default')).body.data as Row[];
    expect(defaults.map((p) => p.model)).toEqual(expect.arrayContaining(['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat']));
    expect((await anon.get('/api/prices?type=bogus')).body).toMatchObject({ success: false, message: 'pricing data not found' });
    expect((await anon.get('/api/prices/model_list')).status).toBe(401);
    expect((await user.client.post('/api/prices/single', { model: 'x', type: 'tokens' })).status).toBe(403);
  });

  it('creates, renames (slashes in the path) and deletes single prices', async () => {
    expect((await f.root.post('/api/prices/single', { model: 'meta/llama-3', type: 'tokens', channel_type: 43, input: 0.5, output: 1 })).body.success).toBe(true);
    expect((await f.root.post('/api/prices/single', { model: 'meta/llama-3', type: 'tokens' })).status).toBe(409);
    expect((await f.root.post('/api/prices/single', { model: 'neg', type: 'tokens', input: -1 })).status).toBe(400);
    expect((await f.root.post('/api/prices/single', { model: 'kind', type: 'minutes' })).status).toBe(400);
    expect((await f.root.get('/api/prices/model_list')).body.data).toContain('meta/llama-3');
    const put = await f.root.put(`/api/prices/single/${encodeURIComponent('meta/llama-3')}`, { model: 'meta/llama-3.1', type: 'times', input: 2, locked: true });
    expect(put.body.success).toBe(true);
    expect(await price('meta/llama-3')).toBeUndefined();
    expect(await price('meta/llama-3.1')).toMatchObject({ type: 'times', input: 2, output: 0, locked: true, channel_type: 0 });
    expect((await f.root.put('/api/prices/single/meta/llama-3.1', { model: 'gpt-4o', type: 'tokens' })).body.message).toBe('model names cannot be duplicated');
    expect((await f.root.put('/api/prices/single/nope', { model: 'nope', type: 'tokens' })).status).toBe(404);
    expect((await f.root.delete('/api/prices/single/meta/llama-3.1')).body.success).toBe(true);
    expect((await f.root.delete('/api/prices/single/meta/llama-3.1')).status).toBe(404);
  });

  it('edits prices in batches', async () => {
    await f.root.post('/api/prices/single', { model: 'b-one', type: 'tokens', input: 1 });
    await f.root.post('/api/prices/single', { model: 'b-two', type: 'tokens', input: 1 });
    const res = await f.root.post('/api/prices/multiple', { original_models: ['b-one', 'b-two'], models: ['b-two', 'b-three'], price: { model: 'batch', type: 'tokens', input: 4, output: 8 } });
    expect(res.body.success).toBe(true);
    expect(await price('b-one')).toBeUndefined();
    expect(await price('b-two')).toMatchObject({ input: 4, output: 8 });
    expect(await price('b-three')).toMatchObject({ input: 4, output: 8 });
    expect((await f.root.post('/api/prices/multiple', { models: [], price: { model: 'batch', type: 'tokens' } })).status).toBe(400);
    expect((await f.root.put('/api/prices/multiple/delete', { models: ['b-two', 'b-three'] })).body.success).toBe(true);
    expect(await price('b-two')).toBeUndefined();
    expect((await f.root.put('/api/prices/multiple/delete', {})).status).toBe(400);
  });

  it('syncs prices per mode and never replaces a locked price', async () => {
    await f.root.post('/api/prices/single', { model: 's-open', type: 'tokens', input: 1, output: 1 });
    await f.root.post('/api/prices/single', { model: 's-locked', type: 'tokens', input: 1, output: 1, locked: true });
    const incoming = [
      { model: 's-open', type: 'tokens', input: 9, output: 9 },
      { model: 's-locked', type: 'tokens', input: 9, output: 9 },
      { model: 's-new', type: 'tokens', input: 3, output: 3 },
    ];
    await f.root.post('/api/prices/sync?updateMode=add', incoming);
    expect([(await price('s-open'))?.input, (await price('s-locked'))?.input, (await price('s-new'))?.input]).toEqual([1, 1, 3]);
    await f.root.put('/api/prices/multiple/delete', { models: ['s-new'] });
    await f.root.post('/api/prices/sync?updateMode=update', incoming);
    expect([(await price('s-open'))?.input, (await price('s-locked'))?.input, await price('s-new')]).toEqual([9, 1, undefined]);
    await f.root.post('/api/prices/sync?updateMode=overwrite', [{ model: 's-new', type: 'tokens', input: 5 }]);
    expect([await price('s-open'), (await price('s-locked'))?.input, (await price('s-new'))?.input, await price('gpt-4o')]).toEqual([undefined, 1, 5, undefined]);
    expect((await f.root.post('/api/prices/sync', [])).body.message).toContain('prices is required');
    expect((await f.root.post('/api/prices/sync?updateMode=merge', incoming)).status).toBe(400);
    expect((await f.root.get('/api/prices/updateService')).body.data).toMatch(/^https:\/\//);
  });

  it('keeps built-in owner ids for the system and manages custom owners above 1000', async () => {
    const anon = new ApiClient(f.server.app);
    expect(((await anon.get('/api/model_ownedby/')).body.data as Row[]).find((o) => o.id === 14)).toMatchObject({ name: 'Anthropic' });
    expect((await f.root.post('/api/model_ownedby/', { id: 99, name: 'Mine' })).body.message).toBe('invalid id');
    expect((await f.root.post('/api/model_ownedby/', { id: 1001, name: 'Mine', icon: 'https://icon' })).body.success).toBe(true);
    expect((await f.root.post('/api/model_ownedby/', { id: 1001, name: 'Again' })).status).toBe(409);
    expect((await f.root.get('/api/model_ownedby/1001')).body.data).toEqual({ id: 1001, name: 'Mine', icon: 'https://icon' });
    expect((await f.root.put('/api/model_ownedby/', { id: 14, name: 'Anthropic PBC' })).body.success).toBe(true);
    expect((await anon.get('/api/ownedby')).body.data['14'].name).toBe('Anthropic PBC');
    expect((await f.root.put('/api/model_ownedby/', { id: 5555, name: 'x' })).status).toBe(404);
    expect((await f.root.delete('/api/model_ownedby/14')).status).toBe(400);
    expect((await user.client.delete('/api/model_ownedby/1001')).status).toBe(403);
    expect((await f.root.delete('/api/model_ownedby/1001')).body.success).toBe(true);
    expect((await f.root.get('/api/model_ownedby/1001')).status).toBe(404);
  });

  it('manages model info and embeds it in price answers', async () => {
    const body = { model: 's-locked', name: 'Locked model', description: 'd', context_length: 128000, input_modalities: ['text', 'image'], output_modalities: '["text"]', tags: ['chat'], support_url: 'https://docs.example' };
    expect((await f.root.post('/api/model_info/', body)).body.success).toBe(true);
    expect((await f.root.post('/api/model_info/', body)).body.message).toBe('model identifier already exists');
    await f.root.post('/api/model_info/', { ...body, model: 'other' });
    const rows = (await new ApiClient(f.server.app).get('/api/model_info/')).body.data as Row[];
    expect(rows.map((r) => r.model)).toEqual(['other', 's-locked']);
    expect(rows[1]).toMatchObject({ input_modalities: '["text","image"]', output_modalities: '["text"]', support_url: '["https://docs.example"]' });
    const embedded = (await price('s-locked'))!.model_info;
    expect(embedded).toMatchObject({ name: 'Locked model', context_length: 128000, input_modalities: ['text', 'image'], tags: ['chat'] });
    const id = rows[1].id;
    const created = rows[1].created_at;
    expect((await f.root.put('/api/model_info/', { ...body, id, model: 'other' })).status).toBe(409);
    expect((await f.root.put('/api/model_info/', { ...body, id, name: 'Renamed' })).body.success).toBe(true);
    expect((await f.root.get(`/api/model_info/${id}`)).body.data).toMatchObject({ name: 'Renamed', created_at: created });
    expect((await user.client.get(`/api/model_info/${id}`)).status).toBe(403);
    expect((await f.root.post('/api/model_info/', { name: 'no model' })).status).toBe(400);
    expect((await f.root.delete(`/api/model_info/${id}`)).body.success).toBe(true);
    expect((await f.root.delete(`/api/model_info/${id}`)).status).toBe(404);
    expect((await price('s-locked'))!.model_info).toBeUndefined();
  });
});
