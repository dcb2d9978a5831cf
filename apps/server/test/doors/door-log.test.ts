import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

describe.each(testDialects())('log rows record the door and the usage source on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  let client: Awaited<ReturnType<DoorFixture['newUser']>>['client'];
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['log-claude', 'log-gemini', 'log-openai']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'log-claude-key', base_url: f.claude.url, models: 'log-claude' });
    await f.addChannel({ type: 25, key: 'log-gemini-key', base_url: f.gemini.url, models: 'log-gemini', model_mapping: JSON.stringify({ 'log-gemini': '+gemini-2.5-flash' }) });
    await f.addChannel({ type: 1, key: 'log-openai-key', models: 'log-openai' });
    ({ key, userId, client } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  const meta = async () => {
    const row = await f.lastLog(userId);
    return { row, metadata: JSON.parse(row.metadata) };
  };

  it('names each door, and the dialect a converted request was sent in', async () => {
    await f.openai(key).chat.completions.create({ model: 'log-claude', messages: [{ role: 'user', content: 'hi' }] });
    expect((await meta()).metadata).toMatchObject({ door: '/v1/chat/completions', converted_to: 'anthropic', usage_source: 'reported' });

    await f.anthropic(key).messages.create({ model: 'log-claude', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    const passed = (await meta()).metadata;
    expect(passed).toMatchObject({ door: '/v1/messages', usage_source: 'reported' });
    expect(passed.converted_to).toBeUndefined();

    await f.openai(key).responses.create({ model: 'log-gemini', input: 'hi' });
    expect((await meta()).metadata).toMatchObject({ door: '/v1/responses', converted_to: 'gemini' });

    await f.genai(key).models.generateContent({ model: 'log-openai', contents: 'hi' });
    expect((await meta()).metadata).toMatchObject({ door: '/v1beta', converted_to: 'openai' });

    // The /claude prefix is the same door.
    await fetch(`${f.url}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'log-openai', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect((await meta()).metadata).toMatchObject({ door: '/v1/messages', converted_to: 'openai' });
  });

  it('shows the door to the user in their log, and which family served a converted request only to administrators', async () => {
    await f.openai(key).responses.create({ model: 'log-claude', input: 'hi' });
    await f.flush();
    const own = (await client.get('/api/log/self?page=1&size=1')).body.data.data[0];
    expect(own.metadata).toMatchObject({ door: '/v1/responses', usage_source: 'reported' });
    expect(own.metadata.converted_to).toBeUndefined();
    const seen = (await f.root.get(`/api/log/?page=1&size=1&user_id=${userId}`)).body.data.data[0];
    expect(seen.metadata).toMatchObject({ door: '/v1/responses', converted_to: 'anthropic' });
  });

  it('says when usage was estimated because upstream reported none, plain and streamed', async () => {
    f.gemini.behave('log-gemini-key', { noUsage: true, content: 'four words right here' });
    await f.anthropic(key).messages.create({ model: 'log-gemini', max_tokens: 50, messages: [{ role: 'user', content: 'count me' }] });
    const plain = await meta();
    expect(plain.row).toMatchObject({ estimated: 1, completion_tokens: 4 });
    expect(plain.row.prompt_tokens).toBeGreaterThan(0);
    expect(plain.metadata).toMatchObject({ door: '/v1/messages', usage_source: 'estimated', converted_to: 'gemini' });

    const events: string[] = [];
    for await (const e of await f.openai(key).responses.create({ model: 'log-gemini', input: 'count me', stream: true })) events.push(e.type);
    expect(events.at(-1)).toBe('response.completed');
    const streamed = await meta();
    expect(streamed.row).toMatchObject({ estimated: 1, is_stream: 1 });
    expect(streamed.metadata).toMatchObject({ door: '/v1/responses', usage_source: 'estimated' });
    f.gemini.behave('log-gemini-key', {});

    await f.openai(key).responses.create({ model: 'log-gemini', input: 'count me' });
    expect((await meta()).row.estimated).toBe(0);
  });
});
