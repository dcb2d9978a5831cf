import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { EVENTS } from '../../src/cache/events.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;

describe.each(testDialects())('token console APIs on %s', (dialect) => {
  let f: ConsoleFixture;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const events: string[] = [];
  const mine = async (u: TestUser, q = ''): Promise<Row[]> => (await u.client.get(`/api/token/?size=100&${q}`)).body.data.data;
  const create = async (u: TestUser, body: Row) => {
    const res = await u.client.post('/api/token/', body);
    expect(res.body).toMatchObject({ success: true });
    const row = (await mine(u, 'order=-id'))[0];
    expect(res.body.data).toEqual({ key: row.key }); // the console shows the new key once, in a dialog
    return row;
  };

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    [alice, bob, admin] = [await f.newUser(), await f.newUser(), await f.newUser({ admin: true })];
    f.server.ctx.store.subscribe(EVENTS.tokens, (m) => void events.push(m));
  });
  afterAll(async () => f?.close());

  it('creates tokens with defaults and unguessable keys, and reads them back', async () => {
    const t = await create(alice, { name: 'first', remain_quota: 500 });
    expect(t).toMatchObject({ name: 'first', status: 1, remain_quota: 500, used_quota: 0, unlimited_quota: false, expired_time: -1, group: '', user_id: alice.id });
    expect(t.key).toMatch(/^[0-9A-Za-z]{48}$/);
    expect(t.setting).toEqual({ heartbeat: { enabled: false, timeout_seconds: 0 }, limits: { limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: false, whitelist: [] } } });
    const second = await create(alice, { name: 'second', unlimited_quota: true, expired_time: 4_102_444_800, setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8', '::1'] } } } });
    expect(second.key).not.toBe(t.key);
    expect((await alice.client.get(`/api/token/${second.id}`)).body.data).toMatchObject({ unlimited_quota: true, expired_time: 4_102_444_800, setting: { limits: { limits_ip_setting: { whitelist: ['10.0.0.0/8', '::1'] } } } });
  });

  it('rejects bad token input with a 4xx naming the problem', async () => {
    const bad = async (body: Row) => alice.client.post('/api/token/', body);
    expect((await bad({ name: '令牌名称超过了三十个字节的长度' })).body.message).toContain('令牌名称过长');
    expect((await bad({ name: 'x', remain_quota: -5 })).status).toBe(400);
    expect((await bad({ name: 'x', expired_time: 'soon' })).status).toBe(400);
    expect((await bad({ name: 'x', setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['not-an-ip'] } } } })).status).toBe(400);
    expect((await bad({ name: 'x', setting: { heartbeat: { enabled: true, timeout_seconds: 120 } } })).body.message).toContain('between 30 and 90');
    expect((await bad({ name: 'x', group: 'no-such-group' })).body.message).toBe('无效的用户组');
    expect((await alice.client.get('/api/token/abc')).status).toBe(400);
    expect((await alice.client.get('/api/token/?order=key')).status).toBe(400);
  });

  it('lists own tokens only, with prefix keyword and sorting', async () => {
    await create(alice, { name: 'a_b', remain_quota: 7 });
    await create(alice, { name: 'axb', remain_quota: 9 });
    await create(bob, { name: 'bobs', remain_quota: 1 });
    expect((await mine(alice)).map((t) => t.name)).toEqual(['axb', 'a_b', 'second', 'first']);
    expect((await mine(alice, 'keyword=a_')).map((t) => t.name)).toEqual(['a_b']); // `_` is literal, not a wildcard
    expect((await mine(alice, 'keyword=fir')).map((t) => t.name)).toEqual(['first']);
    expect((await mine(alice, 'order=remain_quota')).map((t) => t.remain_quota)).toEqual([0, 7, 9, 500]);
    expect((await mine(bob)).map((t) => t.name)).toEqual(['bobs']);
    const page = (await alice.client.get('/api/token/?page=2&size=3')).body.data;
    expect(page).toMatchObject({ page: 2, size: 3, total_count: 4 });
    expect(page.data).toHaveLength(1);
  });

  it('answers 404 when another user reads, edits or deletes a token', async () => {
    const token = (await mine(alice, 'keyword=first'))[0];
    expect((await bob.client.get(`/api/token/${token.id}`)).status).toBe(404);
    expect((await bob.client.put('/api/token/', { id: token.id, name: 'stolen' })).status).toBe(404);
    expect((await bob.client.put('/api/token/?status_only=1', { id: token.id, status: 2 })).status).toBe(404);
    expect((await bob.client.delete(`/api/token/${token.id}`)).status).toBe(404);
    expect((await alice.client.get(`/api/token/${token.id}`)).body.data).toMatchObject({ name: 'first', status: 1 });
    expect((await new ApiClient(f.server.app).get('/api/token/')).status).toBe(401);
  });

  it('updates only sent fields, toggles status, and refuses to enable expired or exhausted tokens', async () => {
    const token = (await mine(alice, 'keyword=first'))[0];
    const before = events.length;
    const upd = await alice.client.put('/api/token/', { id: token.id, name: 'renamed', status: 2 });
    expect(upd.body.data).toMatchObject({ name: 'renamed', status: 2, remain_quota: 500, key: token.key });
    expect(events.length).toBeGreaterThan(before);
    expect((await alice.client.put('/api/token/?status_only=1', { id: token.id, status: 1, name: 'ignored' })).body.data).toMatchObject({ status: 1, name: 'renamed' });
    await alice.client.put('/api/token/', { id: token.id, expired_time: 1000, status: 2 });
    expect((await alice.client.put('/api/token/?status_only=1', { id: token.id, status: 1 })).body.message).toContain('令牌已过期');
    await alice.client.put('/api/token/', { id: token.id, expired_time: -1, remain_quota: 0 });
    expect((await alice.client.put('/api/token/?status_only=1', { id: token.id, status: 1 })).body.message).toContain('额度已用尽');
    expect((await alice.client.put('/api/token/', { id: token.id, remain_quota: 10, status: 1 })).body.data).toMatchObject({ status: 1, remain_quota: 10 });
    expect((await alice.client.put('/api/token/?status_only=1', { id: token.id })).status).toBe(400);
    expect((await alice.client.put('/api/token/?status_only=1', { id: token.id, status: 9 })).status).toBe(400);
  });

  it('deletes softly: the token disappears from lists and lookups', async () => {
    const token = (await mine(alice, 'keyword=axb'))[0];
    expect((await alice.client.delete(`/api/token/${token.id}`)).body.success).toBe(true);
    expect((await alice.client.get(`/api/token/${token.id}`)).status).toBe(404);
    expect((await alice.client.delete(`/api/token/${token.id}`)).status).toBe(404);
    expect((await mine(alice)).map((t) => t.name)).not.toContain('axb');
    expect((await f.root.get(`/api/token/admin/search?token_id=${token.id}`)).body.data.total_count).toBe(0);
  });

  it('gives every user one playground token, created on first use', async () => {
    const key = (await bob.client.get('/api/token/playground')).body.data;
    expect(key).toMatch(/^[0-9A-Za-z]{48}$/);
    expect((await bob.client.get('/api/token/playground')).body.data).toBe(key);
    expect((await mine(bob, 'keyword=sys_playground'))[0]).toMatchObject({ key, unlimited_quota: true, expired_time: -1, status: 1 });
    expect((await alice.client.get('/api/token/playground')).body.data).not.toBe(key);
  });

  it('lets admins search every token with its owner, and refuses common users', async () => {
    expect((await alice.client.get('/api/token/admin/search')).status).toBe(403);
    expect((await alice.client.put('/api/token/admin', { id: 1, name: 'x' })).status).toBe(403);
    const all = (await admin.client.get('/api/token/admin/search?size=100')).body.data;
    expect(new Set(all.data.map((t: Row) => t.user_id))).toEqual(new Set([alice.id, bob.id]));
    const bobs = (await admin.client.get(`/api/token/admin/search?user_id=${bob.id}&keyword=bob`)).body.data.data;
    expect(bobs).toHaveLength(1);
    expect(bobs[0]).toMatchObject({ name: 'bobs', owner_name: bob.username, key: expect.stringMatching(/^[0-9A-Za-z]{48}$/) });
    expect((await admin.client.get(`/api/token/admin/search?token_id=${bobs[0].id}`)).body.data.data.map((t: Row) => t.id)).toEqual([bobs[0].id]);
  });

  it('lets admins edit and transfer any token; the billing tag is hidden from and kept for the owner', async () => {
    const token = (await mine(bob, 'keyword=bobs'))[0];
    const upd = await admin.client.put('/api/token/admin', { id: token.id, remain_quota: 99, setting: { billing_tag: 'team-x' } });
    expect(upd.body.data).toMatchObject({ remain_quota: 99, setting: { billing_tag: 'team-x' } });
    const seen = (await bob.client.get(`/api/token/${token.id}`)).body.data;
    expect(seen.setting.billing_tag).toBeUndefined();
    expect((await bob.client.put('/api/token/', { id: token.id, setting: { ...seen.setting, billing_tag: 'mine' } })).body.data.setting.billing_tag).toBeUndefined();
    expect((await admin.client.get(`/api/token/admin/search?token_id=${token.id}`)).body.data.data[0].setting.billing_tag).toBe('team-x');
    expect((await admin.client.put('/api/token/admin', { id: token.id, user_id: 999_999 })).body.message).toBe('目标用户不存在');
    expect((await admin.client.put('/api/token/admin', { id: 999_999, name: 'x' })).status).toBe(404);
    expect((await admin.client.put('/api/token/admin', { id: token.id, user_id: alice.id })).body.data).toMatchObject({ user_id: alice.id, remain_quota: 99 });
    expect((await bob.client.get(`/api/token/${token.id}`)).status).toBe(404);
    expect((await alice.client.get(`/api/token/${token.id}`)).body.data.name).toBe('bobs');
    expect((await admin.client.put('/api/token/admin?status_only=1', { id: token.id, status: 2 })).body.data.status).toBe(2);
  });
});
