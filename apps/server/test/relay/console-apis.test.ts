import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

describe.each(testDialects())('token and channel console APIs on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
  });
  afterAll(async () => f?.close());

  it('keeps tokens private to their owner', async () => {
    const alice = await f.newUser({ token: { name: 'alice-key', unlimited_quota: false, remain_quota: 500 } });
    const bob = await f.newUser();
    const own = await alice.client.get(`/api/token/${alice.tokenId}`);
    expect(own.body.data).toMatchObject({ name: 'alice-key', remain_quota: 500, unlimited_quota: false, expired_time: -1, status: 1 });
    expect(own.body.data.key).toHaveLength(48);
    expect((await bob.client.get(`/api/token/${alice.tokenId}`)).status).toBe(404);
    expect((await bob.client.put('/api/token/', { id: alice.tokenId, name: 'stolen' })).status).toBe(404);
    expect((await bob.client.delete(`/api/token/${alice.tokenId}`)).status).toBe(404);
    expect((await bob.client.get('/api/token/admin/search')).status).toBe(403);
    const search = await f.root.get(`/api/token/admin/search?user_id=${alice.userId}`);
    expect(search.body.data.data[0]).toMatchObject({ id: alice.tokenId, owner_name: expect.any(String) });
  });

  it('validates token groups, settings and re-enabling rules', async () => {
    const { client, tokenId } = await f.newUser({ token: { unlimited_quota: false, remain_quota: 0 } });
    expect((await client.post('/api/token/', { name: 'x', group: 'svip' })).status).toBe(403); // not public
    expect((await client.post('/api/token/', { name: 'x', group: 'nope' })).status).toBe(400);
    const bad = await client.post('/api/token/', { name: 'x', setting: { heartbeat: { enabled: true, timeout_seconds: 5 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('30 and 90');
    await client.put('/api/token/?status_only=1', { id: tokenId, status: 2 });
    const reenable = await client.put('/api/token/?status_only=1', { id: tokenId, status: 1 });
    expect(reenable.body.message).toContain('额度已用尽');
    expect((await client.get('/api/token/playground')).body.data).toHaveLength(48);
  });

  it('hides channel keys in lists, creates one channel per key line and filters', async () => {
    const created = await f.root.post('/api/channel/', { type: 1, name: 'multi', key: 'k-one\nk-two\n\nk-three', base_url: f.fake.url, models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', tag: 'fleet' });
    expect(created.body.data).toBe(3);
    const list = await f.root.get('/api/channel/?tag=fleet&order=id');
    expect(list.body.data.data.map((c: { name: string; key: string }) => [c.name, c.key])).toEqual([['multi', ''], ['multi_2', ''], ['multi_4', '']]);
    // By default a tag is one row (its newest channel); filter_tag=1 leaves tagged channels out.
    const collapsed = await f.root.get('/api/channel/?name=multi');
    expect(collapsed.body.data.data.map((c: { name: string }) => c.name)).toEqual(['multi_4']);
    expect((await f.root.get('/api/channel/?name=multi&filter_tag=1')).body.data.total_count).toBe(0);
    expect((await f.root.get('/api/channel/?filter_tag=2')).body.data.data.map((c: { tag: string }) => c.tag)).toEqual(['fleet']);
    const one = await f.root.post(`/api/channel/${list.body.data.data[1].id}/key`);
    expect(one.body.data.key).toBe('k-two');
    expect((await f.root.get('/api/channel/?group=vip&tag=fleet')).body.data.total_count).toBe(3);
    expect((await f.root.post('/api/channel/', { type: 1, name: 'x', key: 'k', models: '*bad', group: 'default' })).status).toBe(400);
    expect((await f.root.post('/api/channel/', { type: 1, name: 'x', key: 'k', models: 'm', model_mapping: '{not json' })).status).toBe(400);
  });

  it('changes only the fields an update sends (the original zeroed the rest)', async () => {
    const id = await f.addChannel({ models: 'keep-model', base_url: 'http://127.0.0.1:9', priority: 3, weight: 4 });
    await f.root.put('/api/channel/', { id, status: 2 });
    expect((await f.root.get(`/api/channel/${id}`)).body.data).toMatchObject({ status: 2, base_url: 'http://127.0.0.1:9', priority: 3, weight: 4, models: 'keep-model' });
    const { client, tokenId } = await f.newUser({ token: { unlimited_quota: false, remain_quota: 777, expired_time: 4102444800 } });
    await client.put('/api/token/', { id: tokenId, name: 'renamed' });
    expect((await client.get(`/api/token/${tokenId}`)).body.data).toMatchObject({ name: 'renamed', remain_quota: 777, unlimited_quota: false, expired_time: 4102444800 });
  });

  it('runs tag operations across the tagged channels', async () => {
    expect((await f.root.get('/api/channel_tag/_all')).body.data).toContainEqual({ id: 0, tag: 'fleet' });
    await f.root.put('/api/channel_tag/fleet/priority', { type: 'priority', value: 7 });
    await f.root.put('/api/channel_tag/fleet/status/disable');
    const members = (await f.root.get('/api/channel_tag/fleet/list')).body.data as Array<{ priority: number; status: number }>;
    expect(members).toHaveLength(3);
    expect(members.every((c) => c.priority === 7 && c.status === 2)).toBe(true);
    expect((await f.root.put('/api/channel_tag/fleet/status/sideways')).status).toBe(400);
    expect((await f.root.delete('/api/channel_tag/fleet/disabled')).body.data).toBe(3);
    expect((await f.root.get('/api/channel_tag/fleet/list')).body.data).toHaveLength(0);
  });

  it('replaces a tag\'s key set and applies shared fields, flags included', async () => {
    await f.root.post('/api/channel/', { type: 1, name: 'pool', key: 'p-1\np-2', base_url: f.fake.url, models: 'a', tag: 'pool', only_chat: true });
    const res = await f.root.put('/api/channel_tag/pool', { type: 1, name: 'pool', key: 'p-2\np-3', models: 'b,c', only_chat: false });
    expect(res.body.success).toBe(true);
    const members = (await f.root.get('/api/channel_tag/pool/list')).body.data as Array<{ key: string; models: string; only_chat: boolean }>;
    expect(members.map((m) => m.key).sort()).toEqual(['p-2', 'p-3']);
    expect(members.every((m) => m.models === 'b,c' && m.only_chat === false)).toBe(true);
    expect((await f.root.put('/api/channel_tag/pool', { type: 1, key: '' })).status).toBe(400);
  });

  it('lists upstream models for a channel form and priced models for the picker', async () => {
    const res = await f.root.post('/api/channel/provider_models_list', { type: 1, key: 'any-key', base_url: f.fake.url });
    expect(res.body.data).toEqual(['gpt-4o', 'gpt-4o-mini']);
    const models = await f.root.get('/api/channel/models');
    expect(models.body.object).toBe('list');
    expect(models.body.data.find((m: { id: string }) => m.id === 'gpt-4o').owned_by).toBe('OpenAI');
  });

  it('removes a model from several channels and deletes in batches', async () => {
    const a = await f.addChannel({ models: 'm1,m2' });
    const b = await f.addChannel({ models: 'm2,m3' });
    await f.root.put('/api/channel/batch/del_model', { ids: [a, b], value: 'm2' });
    expect((await f.root.get(`/api/channel/${a}`)).body.data.models).toBe('m1');
    expect((await f.root.get(`/api/channel/${b}`)).body.data.models).toBe('m3');
    expect((await f.root.request('DELETE', '/api/channel/batch', { ids: [a, b], value: 'batch_delete' })).body.data).toBe(2);
    expect((await f.root.get(`/api/channel/${a}`)).status).toBe(404);
  });
});
