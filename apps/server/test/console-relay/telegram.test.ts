import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

type Row = Record<string, any>;

describe.each(testDialects())('telegram menus on %s', (dialect) => {
  let f: ConsoleFixture;
  let admin: TestUser;
  const menu = { command: 'help', description: 'How to use the bot', parse_mode: 'Markdown', reply_message: '*Help*: send /balance' };
  const list = async (q = ''): Promise<Row> => (await f.root.get(`/api/option/telegram/?${q}`)).body.data;

  beforeAll(async () => {
    f = await consoleFixture(dialect);
    admin = await f.newUser({ admin: true });
  });
  afterAll(async () => f?.close());

  it('creates, reads, updates and deletes menus with the original messages', async () => {
    const created = await f.root.post('/api/option/telegram/', menu);
    expect(created.body).toEqual({ success: true, message: '添加成功' });
    const row = (await list('keyword=he')).data[0];
    expect(row).toEqual({ id: expect.any(Number), ...menu });
    expect((await f.root.get(`/api/option/telegram/${row.id}`)).body.data).toEqual(row);

    const updated = await f.root.post('/api/option/telegram/', { id: row.id, command: '/helpme', description: 'Help', reply_message: 'plain' });
    expect(updated.body).toEqual({ success: true, message: '修改成功' });
    expect((await f.root.get(`/api/option/telegram/${row.id}`)).body.data).toEqual({ id: row.id, command: 'helpme', description: 'Help', parse_mode: 'MarkdownV2', reply_message: 'plain' });

    expect((await f.root.delete(`/api/option/telegram/${row.id}`)).body).toEqual({ success: true, message: '删除成功' });
    expect((await f.root.get(`/api/option/telegram/${row.id}`)).status).toBe(404);
    expect((await f.root.delete(`/api/option/telegram/${row.id}`)).status).toBe(404);
    expect((await f.root.post('/api/option/telegram/', { ...menu, id: 999999 })).status).toBe(404);
  });

  it('refuses built-in and taken commands, and bad input, with 4xx', async () => {
    expect((await f.root.post('/api/option/telegram/', { ...menu, command: 'balance' })).body).toMatchObject({ success: false, message: 'command已存在' });
    await f.root.post('/api/option/telegram/', { ...menu, command: 'price' });
    const taken = await f.root.post('/api/option/telegram/', { ...menu, command: 'price' });
    expect(taken.status).toBe(409);
    const price = (await list('keyword=price')).data[0];
    // Saving a menu under its own command is not a clash.
    expect((await f.root.post('/api/option/telegram/', { ...menu, id: price.id, command: 'price', reply_message: 'new' })).body.success).toBe(true);

    const bad = async (body: Row) => f.root.post('/api/option/telegram/', body);
    expect((await bad({ ...menu, command: '' })).body.message).toMatch(/^command:/);
    expect((await bad({ ...menu, command: 'Has Space' })).status).toBe(400);
    expect((await bad({ ...menu, command: 'x'.repeat(33) })).status).toBe(400);
    expect((await bad({ ...menu, description: '' })).body.message).toMatch(/^description:/);
    expect((await bad({ ...menu, parse_mode: 'HTML5' })).body.message).toMatch(/^parse_mode:/);
    expect((await bad({ ...menu, reply_message: '' })).body.message).toMatch(/^reply_message:/);
    expect((await f.root.get('/api/option/telegram/0')).status).toBe(400);
    expect((await f.root.get('/api/option/telegram/?order=secret')).status).toBe(400);
  });

  it('searches by id or command prefix and sorts', async () => {
    for (const command of ['alpha', 'beta', 'alps']) await f.root.post('/api/option/telegram/', { ...menu, command });
    expect((await list('keyword=al&order=command')).data.map((m: Row) => m.command)).toEqual(['alpha', 'alps']);
    expect((await list('keyword=%2Fbe')).data.map((m: Row) => m.command)).toEqual(['beta']);
    const beta = (await list('keyword=beta')).data[0];
    expect((await list(`keyword=${beta.id}`)).data.map((m: Row) => m.id)).toContain(beta.id);
    expect((await list('keyword=_')).total_count).toBe(0);
    const page = await list('size=2&page=2&order=-command');
    expect(page).toMatchObject({ page: 2, size: 2 });
    expect(page.total_count).toBeGreaterThanOrEqual(4);
  });

  it('reports the bot offline and refuses a reload while there is no bot', async () => {
    expect((await f.root.get('/api/option/telegram/status')).body.data).toEqual({ status: false, is_webhook: false });
    const reload = await f.root.put('/api/option/telegram/reload');
    expect(reload.status).toBe(409);
    expect(reload.body).toMatchObject({ success: false, message: 'telegram bot is not enabled' });
  });

  it('is for root only', async () => {
    expect((await admin.client.get('/api/option/telegram/')).status).toBe(403);
    expect((await admin.client.post('/api/option/telegram/', { ...menu, command: 'sneaky' })).status).toBe(403);
    expect((await admin.client.get('/api/option/telegram/status')).status).toBe(403);
    expect((await admin.client.delete('/api/option/telegram/1')).status).toBe(403);
  });
});
