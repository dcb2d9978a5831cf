import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeOpenAIFiles } from '../fakes/openai-files.js';

describe.each(testDialects())('pass-through endpoints on %s', (dialect) => {
  let f: RelayFixture;
  let files: FakeOpenAIFiles;
  let channelId: number;
  let rootKey: string;
  let rootId: number;

  beforeAll(async () => {
    files = new FakeOpenAIFiles();
    await files.start();
    f = await relayFixture(dialect);
    channelId = await f.addChannel({ base_url: files.url, key: 'sk-channel-secret' });
    const created = await f.root.post('/api/token/', { name: 'root-key', unlimited_quota: true });
    expect(created.body.success).toBe(true);
    const token = (await f.root.get('/api/token/')).body.data.data[0];
    rootKey = `sk-${token.key}`;
    rootId = (await f.root.get('/api/user/self')).body.data.id;
  });
  afterAll(async () => {
    await f?.close();
    await files?.close();
  });

  const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${f.url}/v1`, maxRetries: 0 });
  const last = () => files.received.at(-1)!;

  it('relays the files API byte for byte to the pinned channel with its key', async () => {
    const openai = client(`${rootKey}#${channelId}`);
    const content = Buffer.from('{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{}}\n\u00ff\u0000binary');
    const uploaded = await openai.files.create({ file: await toFile(content, 'batch.jsonl'), purpose: 'batch' });
    expect(uploaded).toMatchObject({ id: 'file-1', object: 'file', bytes: content.length, filename: 'batch.jsonl', purpose: 'batch' });
    expect(last()).toMatchObject({ method: 'POST', url: '/v1/files' });
    expect(last().headers.authorization).toBe('Bearer sk-channel-secret');
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);

    const list = await openai.files.list({ purpose: 'batch' });
    expect(list.data.map((x) => x.id)).toEqual(['file-1']);
    expect(last().url).toBe('/v1/files?purpose=batch');
    expect(await openai.files.retrieve('file-1')).toMatchObject({ id: 'file-1', status: 'processed' });
    const download = await openai.files.content('file-1');
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    const batch = await openai.batches.create({ input_file_id: 'file-1', endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch).toMatchObject({ id: 'batch_1', input_file_id: 'file-1', status: 'validating' });
    expect(JSON.parse(last().body.toString())).toEqual({ input_file_id: 'file-1', endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(await openai.models.delete('ft:gpt-4o:org:custom:abc')).toMatchObject({ id: 'ft:gpt-4o:org:custom:abc', deleted: true });
    expect(await openai.files.delete('file-1')).toMatchObject({ deleted: true });
  });

  it('passes upstream errors on in OpenAI shape and honours #id#ignore', async () => {
    const openai = client(`${rootKey}#${channelId}#ignore`);
    const error = await openai.files.retrieve('file-404').catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.message).toContain('No such File object: file-404');
    expect(error.message).toMatch(/request id: /);
  });

  it('requires an admin pin to an enabled OpenAI or Azure channel', async () => {
    const noPin = await client(rootKey).files.list().catch((e) => e);
    expect(noPin).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(noPin.message).toContain('必须指定渠道');
    const user = await f.newUser();
    const notAdmin = await client(`${user.key}#${channelId}`).files.list().catch((e) => e);
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.message).toContain('普通用户不支持指定渠道');

    const anthropic = await f.addChannel({ type: 14, base_url: files.url });
    const wrongType = await client(`${rootKey}#${anthropic}`).files.list().catch((e) => e);
    expect(wrongType.status).toBe(503);
    expect(wrongType.message).toContain('provider must be of type azureopenai or openai');
    const disabled = await f.addChannel({ base_url: files.url });
    await f.root.put('/api/channel/', { id: disabled, status: 2 });
    expect((await client(`${rootKey}#${disabled}`).files.list().catch((e) => e)).message).toContain('该渠道已被禁用');
    expect((await client(`${rootKey}#999999`).files.list().catch((e) => e)).message).toContain('无效的渠道 Id');
    const bad = await fetch(`${f.url}/v1/files`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(bad.status).toBe(401);
  });

  it('builds Azure resource URLs with the api-version and api-key', async () => {
    const azure = await f.addChannel({ type: 3, base_url: `${files.url}/`, key: 'azure-key', other: '2024-10-21' });
    const list = await client(`${rootKey}#${azure}`).files.list({ purpose: 'assistants' });
    expect(list.data).toEqual([]);
    expect(last().url).toBe('/openai/files?purpose=assistants&api-version=2024-10-21');
    expect(last().headers['api-key']).toBe('azure-key');
    expect(last().headers.authorization).toBeUndefined();
  });

  it('logs each call as a free relay row without touching balances', async () => {
    const before = (await f.root.get('/api/user/self')).body.data.quota;
    await client(`${rootKey}#${channelId}`).files.list();
    await f.flush();
    const rows = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', rootId).where('content', '=', '中继:/v1/files').execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row).toMatchObject({ quota: 0, model_name: '', channel_id: expect.any(Number), type: 2 });
    expect(rows.some((r) => Number(r.request_time) >= 0 && r.request_id)).toBe(true);
    expect((await f.root.get('/api/user/self')).body.data.quota).toBe(before);
  });
});
