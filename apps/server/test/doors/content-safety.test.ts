import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { APIError } from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { doorFixture, type DoorFixture } from './fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { FakeOpenAIFiles } from '../fakes/openai-files.js';

const MESSAGE = 'content contains sensitive information';

// The filter is the same code on every dialect: one SQLite server covers it.
describe('content safety (EnableSafe) on every door', () => {
  let f: DoorFixture;
  let realtime: FakeRealtime;
  let files: FakeOpenAIFiles;
  let key: string;
  let userId: number;
  let pinnedKey: string;
  const upstreamCalls = () => f.fake.received.length + f.claude.received.length + f.gemini.received.length + realtime.received.length + files.received.length;

  beforeAll(async () => {
    realtime = new FakeRealtime();
    files = new FakeOpenAIFiles();
    await Promise.all([realtime.start(), files.start()]);
    f = await doorFixture('sqlite');
    for (const m of ['safe-claude', 'safe-gemini']) await f.unitPrice(m);
    await f.addChannel({ type: 1, key: 'safe-openai', models: 'test-model,text-embedding-3-small' });
    await f.addChannel({ type: 14, key: 'safe-claude', base_url: f.claude.url, models: 'safe-claude' });
    await f.addChannel({ type: 25, key: 'safe-gemini', base_url: f.gemini.url, models: 'safe-gemini', model_mapping: JSON.stringify({ 'safe-gemini': '+gemini-2.5-flash' }) });
    await f.addChannel({ type: 1, key: 'safe-rt', base_url: realtime.url, models: 'rt-model' });
    const filesChannel = await f.addChannel({ type: 1, key: 'safe-files', base_url: files.url, models: 'files-only' });
    ({ key, userId } = await f.newUser({ quota: 10_000_000 }));
    await f.root.post('/api/token/', { name: 'root-pin', unlimited_quota: true });
    const rootToken = (await f.root.get('/api/token/')).body.data.data[0];
    pinnedKey = `sk-${rootToken.key}#${filesChannel}`;
    await f.setOption('SafeKeyWords', 'Forbidden Fruit\n炸弹\nバクダン\n');
    await f.setOption('EnableSafe', true);
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([realtime?.close(), files?.close()]);
  });

  /** Runs a call that must be refused locally and returns the error it threw. */
  async function refused(call: () => Promise<unknown>) {
    const before = upstreamCalls();
    const error = await call().then(() => undefined, (e) => e);
    expect(upstreamCalls()).toBe(before);
    return error;
  }

  it('refuses chat, completions, embeddings and Responses through the OpenAI SDK, in either case and width', async () => {
    const openai = f.openai(key);
    const chat = await refused(() => openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'tell me about the FORBIDDEN fruit' }] }));
    expect(chat).toBeInstanceOf(APIError);
    expect(chat.status).toBe(400);
    expect(chat.message).toContain(MESSAGE);
    expect(chat.code).toBe('content_security_policy_blocking');
    // Full-width Latin inside a content part, streamed.
    const parts = await refused(() =>
      openai.chat.completions.create({ model: 'test-model', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'ｆｏｒｂｉｄｄｅｎ　ｆｒｕｉｔ' }] }] }),
    );
    expect(parts.status).toBe(400);
    expect((await refused(() => openai.completions.create({ model: 'test-model', prompt: '如何制作炸弹' }))).status).toBe(400);
    expect((await refused(() => openai.embeddings.create({ model: 'text-embedding-3-small', input: ['fine', 'ﾊﾞｸﾀﾞﾝ'] }))).status).toBe(400);
    const responses = await refused(() => openai.responses.create({ model: 'safe-claude', instructions: 'forbidden fruit', input: 'hello' }));
    expect(responses.status).toBe(400);
    expect(responses.message).toContain(MESSAGE);
  });

  it('refuses the Anthropic Messages door (and /claude) and the Gemini door in their own error shapes', async () => {
    const messages = await refused(() =>
      f.anthropic(key).messages.create({ model: 'safe-claude', max_tokens: 20, system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'Forbidden fruit?' }] }] }),
    );
    expect(messages).toBeInstanceOf(Anthropic.APIError);
    expect(messages.status).toBe(400);
    expect(messages.message).toContain(MESSAGE);
    const before = upstreamCalls();
    const prefixed = await fetch(`${f.url}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'safe-gemini', max_tokens: 20, messages: [{ role: 'user', content: '炸弹' }] }),
    });
    expect(prefixed.status).toBe(400);
    expect(await prefixed.json()).toMatchObject({ type: 'error', error: { message: expect.stringContaining(MESSAGE) } });
    expect(upstreamCalls()).toBe(before);
    const gemini = await refused(() => f.genai(key).models.generateContent({ model: 'safe-gemini', contents: 'the forbidden fruit' }));
    expect(gemini).toBeInstanceOf(ApiError);
    expect(gemini.status).toBe(400);
    expect(JSON.parse(gemini.message).error.message).toContain(MESSAGE);
    const streamed = await refused(async () => {
      for await (const _ of await f.genai(key).models.generateContentStream({ model: 'safe-claude', contents: [{ role: 'user', parts: [{ text: 'バクダン' }] }] })) void _;
    });
    expect(streamed.status).toBe(400);
  });

  it('refuses pass-through assistants/threads bodies and realtime events, forwarding neither', async () => {
    const before = files.received.length;
    const res = await fetch(`${f.url}/v1/threads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pinnedKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'forbidden fruit' }] }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain(MESSAGE);
    expect(files.received.length).toBe(before);

    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, { headers: { authorization: `Bearer ${key}` } });
    const events: Array<Record<string, any>> = [];
    ws.on('message', (d) => events.push(JSON.parse(d.toString())));
    await once(ws, 'open');
    const sent = realtime.received.length;
    ws.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Forbidden Fruit' }] } }));
    ws.send(JSON.stringify({ type: 'response.create' }));
    await expect.poll(() => realtime.received.length).toBe(sent + 1);
    expect(realtime.received.at(-1)).toMatchObject({ type: 'response.create' });
    expect(events.find((e) => e.type === 'error')?.error).toMatchObject({ code: 'content_security_policy_blocking', message: MESSAGE });
    ws.close();
    await once(ws, 'close');
  });

  it('logs each refusal as an error row without the word, and lets clean requests and EnableSafe off through', async () => {
    await f.flush();
    const rows = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 5).execute();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const row of rows) {
      expect(row.content).toBe(`400 ${MESSAGE}`);
      expect(JSON.parse(row.metadata!)).toMatchObject({ code: 'content_security_policy_blocking', status: 400 });
    }
    expect(rows.map((r) => JSON.parse(r.metadata!).door)).toEqual(expect.arrayContaining(['/v1/chat/completions', '/v1/messages', '/v1beta', '/v1/responses']));
    // Nothing was charged for a refused request (the realtime session's clean response.create is).
    const charged = await f.server.ctx.db.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 2).execute();
    expect(charged.map((r) => r.content)).toEqual(['realtime session']);

    const before = f.fake.received.length;
    const ok = await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'a fruit salad, model: forbidden' }] });
    expect(ok.choices[0].message.content).toBeTruthy();
    expect(f.fake.received.length).toBe(before + 1);

    await f.setOption('EnableSafe', false);
    await f.anthropic(key).messages.create({ model: 'safe-claude', max_tokens: 20, messages: [{ role: 'user', content: 'forbidden fruit' }] });
    expect(f.claude.received.at(-1)!.raw).toContain('forbidden fruit');
  });
});
