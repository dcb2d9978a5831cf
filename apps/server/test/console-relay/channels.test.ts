import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { EVENTS } from '../../src/cache/events.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;

describe.each(testDialects())('channel console APIs on %s', (dialect) => {
  let f: ConsoleFixture;
  let user: TestUser;
  const events: string[] = [];
  const base = { type: 1, models: 'gpt-4o', group: 'default' };
  const list = async (q: string): Promise<Row[]> => {
    const res = await f.root.get(`/api/channel/?size=100&${q}`);
    expect(res.body.success).toBe(true);
    return res.body.data.data;
  };
  const names = async (q: string) => (await list(q)).map((r) => r.name).sort();
  const create = async (body: Row) => {
    const res = await f.root.post('/api/channel/', { ...base, ...body });
    expect(res.body).toMatchObject({ success: true });
    return res.body.data as number;
  };
  const idOf = async (name: string) => (await list(`name=${encodeURIComponent(name)}&filter_tag=1`)).find((r) => r.name === name)!.id as number;

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    user = await f.newUser();
    f.server.ctx.store.subscribe(EVENTS.channels, (m) => void events.push(m));
  });
  afterAll(async () => f?.close());

  it('creates one channel per key line with per-line base URLs and column defaults', async () => {
    expect(await create({ name: 'multi', key: 'k-a\n\nk-c\nk-d', base_url: 'https://one.example/\n\nhttps://three.example' })).toBe(3);
    const rows = (await list('name=multi&order=id')).map((r) => ({ name: r.name, base_url: r.base_url, key: r.key }));
    expect(rows).toEqual([
      { name: 'multi', base_url: 'https://one.example', key: '' },
      { name: 'multi_3', base_url: 'https://three.example', key: '' },
      { name: 'multi_4', base_url: 'https://one.example', key: '' },
    ]);
    const detail = (await f.root.get(`/api/channel/${await idOf('multi_3')}`)).body.data;
    expect((await f.root.post(`/api/channel/${await idOf('multi_3')}/key`)).body.data.key).toBe('k-c');
    expect(detail).toMatchObject({ key: '', status: 1, weight: 1, priority: 0, pre_cost: 1, group: 'default', only_chat: false, used_quota: 0 });
    expect(events.length).toBeGreaterThan(0);
  });

  it('refuses channel routes to common users and strangers', async () => {
    const id = await idOf('multi');
    for (const [method, url] of [['GET', '/api/channel/'], ['GET', `/api/channel/${id}`], ['POST', `/api/channel/${id}/key`], ['POST', '/api/channel/'], ['DELETE', `/api/channel/${id}`], ['GET', '/api/channel_tag/_all'], ['GET', '/api/channel/models']] as const) {
      expect((await user.client.request(method, url, method === 'POST' ? { ...base, name: 'x', key: 'x' } : undefined)).status).toBe(403);
      expect((await new ApiClient(f.server.app).request(method, url)).status).toBe(401);
    }
    expect(JSON.stringify((await list('')).map((r) => r.key))).not.toMatch(/k-/);
  });

  it('rejects bad input with a 400 naming the problem', async () => {
    const bad = async (body: Row) => (await f.root.post('/api/channel/', { ...base, name: 'bad', key: 'k', ...body })).status;
    expect(await bad({ key: '' })).toBe(400);
    expect(await bad({ models: '*gpt' })).toBe(400);
    expect(await bad({ model_mapping: '{not json' })).toBe(400);
    expect(await bad({ proxy: 'ftp://x' })).toBe(400);
    expect(await bad({ weight: 0 })).toBe(400);
    expect(await bad({ type: 'abc' })).toBe(400);
    expect((await f.root.put('/api/channel/', { id: 999_999, name: 'x' })).status).toBe(404);
    expect((await f.root.get('/api/channel/abc')).status).toBe(400);
    expect((await f.root.get('/api/channel/?order=key')).body.message).toContain("不允许对字段 'key' 进行排序");
    expect((await f.root.get('/api/channel/?size=101')).status).toBe(400);
  });

  it('filters by every list filter and sorts by allowed columns', async () => {
    await create({ name: 'alpha', key: 'ka', type: 8, models: 'claude-3,gpt-4o', group: 'default,vip', other: '2024-05-01', test_model: 'claude-3', priority: 5 });
    await create({ name: 'beta', key: 'kb', models: 'gemini-pro', group: 'svip', status: 2, priority: 9 });
    expect(await names('type=8')).toEqual(['alpha']);
    expect(await names('status=2')).toEqual(['beta']);
    expect(await names('name=lph')).toEqual(['alpha']);
    expect(await names('group=vip')).toEqual(['alpha']);
    expect(await names('group=vi')).toEqual([]);
    expect(await names('group=svip')).toEqual(['beta']);
    expect(await names('models=claude')).toEqual(['alpha']);
    expect(await names('other=2024-05')).toEqual(['alpha']);
    expect(await names('other=05')).toEqual([]);
    expect(await names('key=kb')).toEqual(['beta']);
    expect(await names('key=k')).toEqual([]);
    expect(await names('test_model=clau')).toEqual(['alpha']);
    const byPriority = (await list('order=-priority,id')).map((r) => r.name);
    expect(byPriority.slice(0, 2)).toEqual(['beta', 'alpha']);
    const page = (await f.root.get('/api/channel/?page=2&size=2&order=id')).body.data;
    expect(page).toMatchObject({ page: 2, size: 2, total_count: 5 });
    expect(page.data).toHaveLength(2);
  });

  it('updates only the fields sent and answers the stored channel with its key', async () => {
    const id = await idOf('alpha');
    const res = await f.root.put('/api/channel/', { id, priority: 0, only_chat: true });
    expect(res.body.data).toMatchObject({ id, priority: 0, only_chat: true, key: 'ka', models: 'claude-3,gpt-4o', other: '2024-05-01', weight: 1 });
    const off = await f.root.put('/api/channel/', { id, only_chat: false, status: 2 });
    expect(off.body.data).toMatchObject({ only_chat: false, status: 2, priority: 0 });
  });

  it('runs batch operations: model removal, Azure API version, batch and disabled deletion', async () => {
    const alpha = await idOf('alpha');
    const multi = await idOf('multi');
    const removed = await f.root.put('/api/channel/batch/del_model', { ids: [alpha, multi], value: 'gpt-4o' });
    expect(removed.body).toMatchObject({ success: true, message: '更新成功', data: 2 });
    expect((await f.root.get(`/api/channel/${alpha}`)).body.data.models).toBe('claude-3');
    expect((await f.root.get(`/api/channel/${multi}`)).body.data.models).toBe('');
    const azure = await f.root.put('/api/channel/batch/azure_api', { ids: [multi], value: '2024-10-21' });
    expect(azure.body.data).toBe(1);
    expect((await f.root.get(`/api/channel/${multi}`)).body.data.other).toBe('2024-10-21');
    expect((await f.root.put('/api/channel/batch/azure_api', { ids: [], value: 'x' })).status).toBe(400);
    expect((await f.root.request('DELETE', '/api/channel/batch', { ids: [multi], value: '' })).status).toBe(400);
    expect((await f.root.request('DELETE', '/api/channel/batch', { ids: [multi, 999_999], value: 'batch_delete' })).body.data).toBe(1);
    expect((await f.root.get(`/api/channel/${multi}`)).status).toBe(404);
    expect((await f.root.delete('/api/channel/disabled')).body.data).toBe(2); // alpha and beta are disabled
    expect(await names('')).toEqual(['multi_3', 'multi_4']);
    expect((await f.root.delete(`/api/channel/${multi}`)).status).toBe(404);
    expect((await f.root.delete(`/api/channel/${await idOf('multi_4')}`)).body.success).toBe(true);
  });

  it('groups tags in the list and runs every tag operation', async () => {
    await create({ name: 'fleet', key: 'f1\nf2\nf3', tag: 'fleet', priority: 1, only_chat: true });
    const tagged = await f.root.get('/api/channel_tag/fleet/list');
    expect(tagged.body.data.map((r: Row) => r.key)).toEqual(['f1', 'f2', 'f3']);
    const ids = tagged.body.data.map((r: Row) => r.id as number);
    expect((await f.root.get('/api/channel_tag/_all')).body.data).toEqual([{ id: 0, tag: 'fleet' }]);
    expect((await list('')).filter((r) => r.tag === 'fleet').map((r) => r.id)).toEqual([Math.max(...ids)]);
    expect(await names('filter_tag=1')).toEqual(['multi_3']);
    expect((await list('filter_tag=2')).map((r) => r.id)).toEqual([Math.max(...ids)]);
    expect((await list('name=flee&filter_tag=2')).length).toBe(1);
    expect((await list('tag=fleet')).length).toBe(3);

    const one = (await f.root.get('/api/channel_tag/fleet')).body.data;
    expect(one.key).toBe('f1\nf2\nf3');
    expect(one.KeyMap).toEqual(Object.fromEntries(['f1', 'f2', 'f3'].map((k, i) => [createHash('md5').update(k).digest('hex'), ids[i]])));
    expect((await f.root.get('/api/channel_tag/nope')).status).toBe(404);

    const put = await f.root.put('/api/channel_tag/fleet', { name: 'fleet', key: 'f1\nf3\nf4', only_chat: false, models: 'gpt-4o-mini' });
    expect(put.body.success).toBe(true);
    const after = (await f.root.get('/api/channel_tag/fleet/list')).body.data as Row[];
    expect(after.map((r) => r.key)).toEqual(['f1', 'f3', 'f4']);
    expect(after.every((r) => r.only_chat === false && r.models === 'gpt-4o-mini' && r.priority === 1)).toBe(true);
    expect(after[2].name).toBe('fleet_4');
    expect((await f.root.put('/api/channel_tag/fleet', { key: ' \n ' })).body.message).toBe('key不能为空');

    expect((await f.root.put('/api/channel_tag/fleet/priority', { type: 'priority', value: 7 })).body.success).toBe(true);
    expect((await f.root.put('/api/channel_tag/fleet/priority', { type: 'weight', value: 7 })).body.message).toContain('invalid type');
    expect((await f.root.put('/api/channel_tag/fleet/status/disable')).body.success).toBe(true);
    expect((await f.root.put('/api/channel_tag/fleet/status/paused')).body.message).toContain('invalid status');
    expect(((await f.root.get('/api/channel_tag/fleet/list')).body.data as Row[]).map((r) => [r.priority, r.status])).toEqual([[7, 2], [7, 2], [7, 2]]);
    await f.root.put('/api/channel_tag/fleet/status/enable');
    await f.root.put('/api/channel/', { id: after[0].id, status: 2 });
    expect((await f.root.delete('/api/channel_tag/fleet/disabled')).body.data).toBe(1);
    expect((await f.root.delete(`/api/channel/${after[1].id}/tag`)).body.success).toBe(true);
    expect((await f.root.get(`/api/channel/${after[1].id}`)).body.data.tag).toBe('');
    expect((await f.root.delete('/api/channel_tag/fleet')).body.data).toBe(1);
    expect((await f.root.get('/api/channel_tag/_all')).body.data).toEqual([]);
    expect((await user.client.put('/api/channel_tag/fleet/priority', { type: 'priority', value: 1 })).status).toBe(403);
  });

  it('answers the channel type catalogue, the priced-model picker and tests without a test model', async () => {
    const types = (await f.root.get('/api/channel/types')).body.data as Row[];
    expect(types.find((t) => t.id === 1)).toMatchObject({ name: 'OpenAI', baseUrl: 'https://api.openai.com' });
    const models = (await f.root.get('/api/channel/models')).body;
    expect(models.object).toBe('list');
    expect(models.data.find((m: Row) => m.id === 'gpt-4o')).toEqual({ id: 'gpt-4o', object: 'model', created: 1677649963, owned_by: 'OpenAI' });
    await create({ name: 'no-test', key: 'nt', models: 'gpt-4*' });
    const id = await idOf('no-test');
    const test = (await f.root.get(`/api/channel/test/${id}`)).body;
    expect(test).toMatchObject({ success: false, time: 0 });
    expect((await f.root.get('/api/channel/test/999999')).status).toBe(404);
    expect((await f.root.post('/api/channel/provider_models_list', { type: 1 })).status).toBe(400);
    expect((await f.root.get('/api/channel/update_balance/999999')).status).toBe(404);
  });

  it('refreshes balances of enabled OpenAI and Custom channels and reports an unreachable provider', async () => {
    for (const r of await list('')) await f.root.put('/api/channel/', { id: r.id, status: 2 });
    await create({ name: 'custom-down', key: 'cd', type: 1, base_url: 'http://127.0.0.1:1' });
    const id = await idOf('custom-down');
    expect((await f.root.get('/api/channel/update_balance')).body).toMatchObject({ success: true, data: 0 });
    const one = await f.root.get(`/api/channel/update_balance/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ balance: 0 });
    expect(one.body.success).toBe(false);
    expect(one.body.message).not.toBe('');
  });
});
