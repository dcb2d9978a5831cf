import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';

describe.each(testDialects())('user groups and redemption codes on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.destroy());

  const groupBySymbol = async (symbol: string) =>
    ((await root.get('/api/user_group/?size=100')).body.data.data as Array<{ id: number; symbol: string }>).find((g) => g.symbol === symbol);

  it('seeds default, vip and svip', async () => {
    const list = (await root.get('/api/user_group/?order=id')).body.data;
    expect(list.total_count).toBe(3);
    expect(list.data.map((g: { symbol: string; public: boolean; ratio: number; api_rate: number; enable: boolean }) => [g.symbol, g.public, g.ratio, g.api_rate, g.enable])).toEqual([
      ['default', true, 1, 600, true],
      ['vip', false, 1, 600, true],
      ['svip', false, 1, 600, true],
    ]);
    const anonMap = (await new ApiClient(server.app).get('/api/user_group_map')).body.data;
    expect(Object.keys(anonMap)).toEqual(['default']);
  });

  it('creates, reads, updates, toggles and deletes groups', async () => {
    const create = await root.post('/api/user_group/', { symbol: 'gold', name: 'Gold', ratio: 0.8, api_rate: 120, public: true });
    expect(create.body.success, JSON.stringify(create.body)).toBe(true);
    expect((await root.post('/api/user_group/', { symbol: 'gold', name: 'Again' })).status).toBe(409);
    expect((await root.post('/api/user_group/', { symbol: 'bad symbol', name: 'x' })).status).toBe(400);
    const gold = await groupBySymbol('gold');
    expect((await root.get(`/api/user_group/${gold!.id}`)).body.data).toMatchObject({ symbol: 'gold', name: 'Gold', ratio: 0.8, api_rate: 120, public: true, enable: true });
    expect((await root.get('/api/user_group/999999')).status).toBe(404);

    // A ratio of 0 (free) and an api_rate of 0 (blocked) are kept, not replaced by 1 and 600.
    await root.post('/api/user_group/', { symbol: 'free', name: 'Free', ratio: 0, api_rate: 0 });
    expect(await groupBySymbol('free')).toMatchObject({ ratio: 0, api_rate: 0 });
    await root.post('/api/user_group/', { symbol: 'plain', name: 'Plain' });
    expect(await groupBySymbol('plain')).toMatchObject({ ratio: 1, api_rate: 600, enable: true });

    const update = await root.put('/api/user_group/', { id: gold!.id, name: 'Gold+', ratio: 0.75, api_rate: 60, public: false, symbol: 'renamed' });
    expect(update.body.success).toBe(true);
    expect((await root.get(`/api/user_group/${gold!.id}`)).body.data).toMatchObject({ symbol: 'gold', name: 'Gold+', ratio: 0.75, public: false });
    expect((await root.put('/api/user_group/', { id: 999999, name: 'x', ratio: 1, api_rate: 1 })).status).toBe(404);

    expect((await root.put(`/api/user_group/enable/${gold!.id}`)).body.success).toBe(true);
    expect((await root.get('/api/group/')).body.data).not.toContain('gold');
    expect((await root.get('/api/user_group/?enable=false')).body.data.data.map((g: { symbol: string }) => g.symbol)).toEqual(['gold']);
    await root.put(`/api/user_group/enable/${gold!.id}`);
    expect((await root.get('/api/group/')).body.data).toContain('gold');

    const def = await groupBySymbol('default');
    expect((await root.put(`/api/user_group/enable/${def!.id}`)).status).toBe(400);
    expect((await root.delete(`/api/user_group/${def!.id}`)).status).toBe(400);
    expect((await root.delete(`/api/user_group/${gold!.id}`)).body.success).toBe(true);
    expect(await groupBySymbol('gold')).toBeUndefined();
    expect((await root.delete(`/api/user_group/${gold!.id}`)).status).toBe(404);
  });

  it('shows a signed-in user their own private group in the map', async () => {
    await new ApiClient(server.app).post('/api/user/register', { username: 'vera', password: 'password123' });
    const vera = new ApiClient(server.app);
    const me = await vera.login('vera', 'password123');
    await root.put('/api/user/', { id: me.id, group: 'vip' });
    expect(Object.keys((await vera.get('/api/user_group_map')).body.data).sort()).toEqual(['default', 'vip']);
  });

  it('batch-creates codes, lists, searches, updates and deletes them', async () => {
    const keys = (await root.post('/api/redemption/', { name: 'batch', quota: 0, count: 3 })).body.data as string[];
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    expect((await root.post('/api/redemption/', { name: 'x', quota: 1, count: 101 })).status).toBe(400);
    expect((await root.post('/api/redemption/', { name: 'x', quota: 1, count: 0 })).status).toBe(400);
    expect((await root.post('/api/redemption/', { name: '名字太长了名字太长了', quota: 1, count: 1 })).status).toBe(400);

    const list = (await root.get('/api/redemption/?keyword=batch&order=-id')).body.data;
    expect(list.total_count).toBe(3);
    const first = list.data[0];
    expect(first).toMatchObject({ name: 'batch', quota: 100, status: 1, count: 0, used_user_id: 0 }); // quota 0 → 100
    expect(keys).toContain(first.key);
    expect((await root.get(`/api/redemption/${first.id}`)).body.data.key).toBe(first.key);
    expect((await root.get('/api/redemption/999999')).status).toBe(404);

    const updated = await root.put('/api/redemption/', { id: first.id, name: 'renamed', quota: 250 });
    expect(updated.body.data).toMatchObject({ name: 'renamed', quota: 250, status: 1 });
    expect((await root.put('/api/redemption/?status_only=true', { id: first.id, status: 2 })).body.data.status).toBe(2);

    await new ApiClient(server.app).post('/api/user/register', { username: 'rita', password: 'password123' });
    const rita = new ApiClient(server.app);
    const me = await rita.login('rita', 'password123');
    expect((await rita.post('/api/user/topup', { key: first.key })).body.message).toBe('兑换失败，该兑换码已被使用'); // disabled
    await root.put('/api/redemption/?status_only=true', { id: first.id, status: 1 });
    expect((await rita.post('/api/user/topup', { key: first.key })).body.data).toBe(250);
    const used = (await root.get(`/api/redemption/${first.id}`)).body.data;
    expect(used).toMatchObject({ status: 3, user_id: 1, used_user_id: me.id });
    expect(used.redeemed_time).toBeGreaterThan(0);
    // A used code cannot be made redeemable again.
    expect((await root.put('/api/redemption/?status_only=true', { id: first.id, status: 1 })).status).toBe(400);
    expect((await rita.post('/api/user/topup', { key: 'f'.repeat(32) })).body.message).toBe('兑换失败，无效的兑换码');
    expect((await rita.post('/api/user/topup', { key: '' })).body.message).toBe('未提供兑换码');
    const log = await server.ctx.db.selectFrom('logs').select(['type', 'quota']).where('user_id', '=', me.id).executeTakeFirst();
    expect(log).toMatchObject({ type: 1 });
    expect(Number(log!.quota)).toBe(250);
    // Chinese text for API readers, the message key and its arguments for the console.
    const [own] = (await rita.get('/api/log/self?log_type=1')).body.data.data;
    expect(own.content).toMatch(/^通过兑换码充值 /);
    expect(own.metadata).toEqual({ msg: { key: 'redeem_topup', args: { quota: 250 } } });

    expect((await root.delete(`/api/redemption/${first.id}`)).body.success).toBe(true);
    expect((await root.delete(`/api/redemption/${first.id}`)).status).toBe(404);
    expect((await root.get('/api/redemption/?keyword=batch')).body.data.total_count).toBe(2);
  });

  it('moves a user to the promotion group once the top-up alone reaches its minimum', async () => {
    // QuotaPerUnit 500000: bronze from USD 1 to 2, silver from USD 2.
    await root.post('/api/user_group/', { symbol: 'bronze', name: 'Bronze', promotion: true, min: 1, max: 2 });
    await root.post('/api/user_group/', { symbol: 'silver', name: 'Silver', promotion: true, min: 2, max: 0 });
    await new ApiClient(server.app).post('/api/user/register', { username: 'prom', password: 'password123' });
    const prom = new ApiClient(server.app);
    await prom.login('prom', 'password123');
    const [a, b] = (await root.post('/api/redemption/', { name: 'promo', quota: 600_000, count: 2 })).body.data;
    await prom.post('/api/user/topup', { key: a });
    // 600 000 counted once is bronze; counted twice (the original's defect) it would already be silver.
    expect((await prom.get('/api/user/self')).body.data.group).toBe('bronze');
    await prom.post('/api/user/topup', { key: b });
    expect((await prom.get('/api/user/self')).body.data.group).toBe('silver');
  });
});
