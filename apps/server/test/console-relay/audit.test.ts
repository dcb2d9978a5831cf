import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;
const CHANNEL_KEY = 'sk-audit-channel-secret-0123456789abcdef';
const NEW_KEY = 'sk-audit-rotated-secret-fedcba9876543210';
const SMTP_SECRET = 'smtp-password-that-must-not-leak';
const PAY_SECRET = 'EPAY-MERCHANT-KEY-never-shown';

describe.each(testDialects())('admin audit log on %s', (dialect) => {
  let f: ConsoleFixture;
  let admin: TestUser;
  let alice: TestUser;
  const entries = async (q = ''): Promise<Row[]> => {
    const res = await f.root.get(`/api/audit/?size=100&${q}`);
    expect(res.body.success).toBe(true);
    return res.body.data.data;
  };
  const latest = async (q = '') => (await entries(q))[0];

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    // Entries older than the retention go when the next entry is written: 365 days by default, then 30.
    const old = (days: number) => ({ created_at: Math.floor(Date.now() / 1000) - days * 86_400, actor_id: 1, action: 'update', target_kind: 'option', diff: '{}' });
    await f.server.ctx.db.insertInto('audit_logs').values([old(400), old(100)]).execute();
    admin = await f.newUser({ admin: true });
    alice = await f.newUser();
    expect((await entries('target_kind=option')).length).toBe(1);
    expect((await f.root.put('/api/option/', { key: 'AuditLogRetentionDays', value: '30' })).body.success).toBe(true);
  });
  afterAll(async () => f?.close());

  it('records an option change with its diff, prunes by retention, and masks secret option values', async () => {
    const first = await latest('target_kind=option');
    expect(first).toMatchObject({ actor_name: 'root', action: 'update', target_kind: 'option', target_id: 'AuditLogRetentionDays', diff: { value: { before: null, after: '30' } } });
    expect((await entries('target_kind=option')).length).toBe(1);
    await f.root.put('/api/option/', { key: 'SMTPToken', value: SMTP_SECRET });
    expect(await latest('target_kind=option')).toMatchObject({ target_id: 'SMTPToken', diff: { value: { before: null, after: '****leak' } } });
  });

  it('records channel create, update and delete with the key masked, and a key reveal as its own event', async () => {
    await f.root.post('/api/channel/', { type: 1, name: 'audited', key: CHANNEL_KEY, models: 'gpt-4o', group: 'default', base_url: 'https://up.example' });
    const created = await latest('target_kind=channel');
    expect(created).toMatchObject({ action: 'create', diff: { request: { after: { name: 'audited', key: '****cdef' } } } });
    const id = (await f.root.get('/api/channel/?order=-id&size=1')).body.data.data[0].id;

    // opening the edit dialog reads the channel without its key, and is no reveal
    const before = (await entries('target_kind=channel')).length;
    const detail = await f.root.get(`/api/channel/${id}`);
    expect(detail.body.data).toMatchObject({ id, name: 'audited', key: '' });
    expect(JSON.stringify(detail.body)).not.toContain(CHANNEL_KEY);
    expect((await entries('target_kind=channel')).length).toBe(before);
    // "show key" is the reveal, recorded as its own event
    expect((await f.root.post(`/api/channel/${id}/key`)).body).toEqual({ success: true, message: '', data: { key: CHANNEL_KEY } });
    expect(await latest('target_kind=channel')).toMatchObject({ action: 'reveal_key', target_id: String(id), ip: expect.any(String), diff: { key: { after: '****cdef' } } });
    expect((await entries('target_kind=channel')).length).toBe(before + 1);
    expect((await f.root.post('/api/channel/999999/key')).status).toBe(404);
    expect((await f.root.post('/api/channel/abc/key')).status).toBe(400);

    await f.root.put('/api/channel/', { id, name: 'audited-2', key: NEW_KEY });
    const updated = await latest('target_kind=channel');
    expect(updated).toMatchObject({ action: 'update', target_id: String(id) });
    expect(updated.diff.name).toEqual({ before: 'audited', after: 'audited-2' });
    expect(updated.diff.key).toEqual({ before: '****cdef', after: '****3210' });
    expect(updated.diff).not.toHaveProperty('models'); // only what changed

    await f.root.delete(`/api/channel/${id}`);
    expect(await latest('target_kind=channel')).toMatchObject({ action: 'delete', target_id: String(id) });
  });

  it("records an admin's changes to users, quota, other users' tokens, groups, prices, limits, payments and codes", async () => {
    await admin.client.post(`/api/user/quota/${alice.id}`, { quota: 5000 });
    expect(await latest('target_kind=user')).toMatchObject({ actor_name: admin.username, actor_role: 10, target_id: String(alice.id), diff: { quota: { before: 0, after: 5000 } } });

    await alice.client.post('/api/token/', { name: 'mine' });
    const token = (await alice.client.get('/api/token/')).body.data.data[0];
    const before = (await entries()).length;
    await alice.client.put('/api/token/', { id: token.id, name: 'own-edit' }); // a user's own change is not audited
    expect((await entries()).length).toBe(before);
    await admin.client.put('/api/token/admin', { id: token.id, name: 'by-admin' });
    const tokenEntry = await latest('target_kind=token');
    expect(tokenEntry).toMatchObject({ target_id: String(token.id), diff: { name: { before: 'own-edit', after: 'by-admin' } } });
    expect(JSON.stringify(tokenEntry)).not.toContain(token.key);

    await admin.client.post('/api/user_group/', { symbol: 'audit-vip', name: 'VIP', ratio: 2 });
    expect(await latest('target_kind=user_group')).toMatchObject({ action: 'create', target_id: 'audit-vip', diff: { ratio: { before: null, after: 2 } } });

    await admin.client.post('/api/prices/single', { model: 'audit-model', type: 'tokens', input: 3, output: 6 });
    expect(await latest('target_kind=price')).toMatchObject({ action: 'create', target_id: 'audit-model', diff: { input: { before: null, after: 3 } } });
    await admin.client.put('/api/prices/single/audit-model', { model: 'audit-model', type: 'tokens', input: 4, output: 6 });
    expect(await latest('target_kind=price')).toMatchObject({ action: 'update', diff: { input: { before: 3, after: 4 } } });

    await admin.client.put(`/api/limits/user/${alice.id}`, { rpm: 9 });
    expect((await latest('target_kind=limits')).diff.limits.after).toContain('"rpm":9');

    const gw = (await admin.client.post('/api/payment/', { type: 'epay', name: 'Epay', icon: 'https://pay.example/i.png', currency: 'CNY', config: JSON.stringify({ partner_id: '1001', key: PAY_SECRET }) })).body.data;
    await admin.client.put('/api/payment/', { id: gw.id, name: 'Epay 2', config: JSON.stringify({ partner_id: '1001', key: `${PAY_SECRET}-rotated` }) });
    const pay = await latest('target_kind=payment');
    expect(pay).toMatchObject({ action: 'update', target_id: String(gw.id), diff: { name: { before: 'Epay', after: 'Epay 2' } } });
    expect(JSON.parse(pay.diff.config.after)).toEqual({ partner_id: '1001', key: '****ated' });

    const codes = (await admin.client.post('/api/redemption/', { name: 'gift', quota: 10, count: 2 })).body.data as string[];
    expect(await latest('target_kind=redemption')).toMatchObject({ action: 'create', diff: { request: { after: { name: 'gift', count: 2 } } } });

    const all = JSON.stringify(await entries());
    for (const secret of [CHANNEL_KEY, NEW_KEY, SMTP_SECRET, PAY_SECRET, ...codes]) expect(all).not.toContain(secret);
  });

  it('writes nothing for a change that changed nothing or failed', async () => {
    const before = (await entries()).length;
    await f.root.put('/api/option/', { key: 'AuditLogRetentionDays', value: '30' });
    expect((await f.root.put('/api/user_group/', { id: 999_999, name: 'x', ratio: 1, api_rate: 1 })).status).toBe(404);
    expect((await entries()).length).toBe(before);
  });

  it('filters by actor, target kind and time, and exports CSV with the same filters and no secrets', async () => {
    expect((await entries(`actor=${admin.username}`)).every((e) => e.actor_name === admin.username)).toBe(true);
    expect((await entries(`actor=${admin.username}`)).length).toBeGreaterThanOrEqual(7);
    expect((await entries('target_kind=price')).map((e) => e.action)).toEqual(['update', 'create']);
    const now = Math.floor(Date.now() / 1000);
    expect(await entries(`start_timestamp=${now + 3600}`)).toEqual([]);
    expect((await entries(`start_timestamp=${now - 3600}&end_timestamp=${now + 60}`)).length).toBeGreaterThan(5);
    expect((await f.root.get('/api/audit/?target_kind=nonsense')).status).toBe(400);

    const csv = await f.root.get('/api/audit/export?target_kind=channel');
    expect(csv.raw.headers['content-type']).toContain('text/csv');
    const lines = csv.raw.body.trim().split('\r\n');
    expect(lines[0]).toBe('ID,Time (UTC),Actor ID,Actor,IP,Action,Target kind,Target ID,Changes');
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['delete', 'update', 'reveal_key', 'create']);
    expect(csv.raw.body).not.toContain(CHANNEL_KEY);
  });

  it('is readable by root only and cannot be edited or deleted through the API', async () => {
    expect((await alice.client.get('/api/audit/')).status).toBe(403);
    expect((await admin.client.get('/api/audit/')).status).toBe(403);
    expect((await admin.client.get('/api/audit/export')).status).toBe(403);
    const id = (await latest()).id;
    for (const method of ['PUT', 'DELETE'] as const) expect((await f.root.request(method, `/api/audit/${id}`, {})).status).toBe(404);
    expect((await entries()).some((e) => e.id === id)).toBe(true);
  });
});
