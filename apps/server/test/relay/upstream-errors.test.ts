import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';

/** A loopback port nobody listens on (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

type Door = 'openai' | 'claude' | 'gemini';

/** One request through a door, raw, so every byte the caller gets can be searched. */
async function call(f: DoorFixture, door: Door, key: string, model: string, stream: boolean): Promise<{ status: number; text: string }> {
  const content = 'hello there';
  const [path, headers, body] =
    door === 'openai'
      ? [`/v1/chat/completions`, { authorization: `Bearer ${key}` }, { model, stream, messages: [{ role: 'user', content }] }]
      : door === 'claude'
        ? [`/v1/messages`, { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { model, stream, max_tokens: 50, messages: [{ role: 'user', content }] }]
        : [`/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, { 'x-goog-api-key': key }, { contents: [{ role: 'user', parts: [{ text: content }] }] }];
  const res = await fetch(`${f.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

interface Case {
  name: string;
  door: Door;
  stream?: boolean;
  /** Channel type and base URL (default: the door's own family and fake). */
  type?: number;
  baseUrl?: string;
  key: string;
  /** What else names the channel: its host, IP, port, other keys. */
  secrets: string[];
  arrange(f: DoorFixture, model: string): void;
}

const html = (text: string) => `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>${text}</h1><hr>nginx</body></html>`;

describe.each(testDialects())('upstream identity never reaches a non-admin on %s', (dialect) => {
  let f: DoorFixture;
  let refused: number;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    refused = await closedPort();
  });
  afterAll(async () => f?.close());

  /** Fourteen ways upstream or the network can fail, each naming the key or the host. */
  const cases = (): Case[] => {
    const oa = new URL(f.fake.url);
    const cl = new URL(f.claude.url);
    const ge = new URL(f.gemini.url);
    return [
      { name: 'openai 401 echoing the key', door: 'openai', key: 'leak01-openai-key', secrets: ['leak01-openai-key', oa.port], arrange: (x) => x.fake.behave('leak01-openai-key', { status: 401, errorBody: { error: { message: 'Incorrect API key provided: leak01-openai-key.', type: 'invalid_request_error', code: 'invalid_api_key' } } }) },
      { name: 'openai 500 naming host and a second key line', door: 'openai', key: 'leak02-first|leak02-pipe-part', secrets: ['leak02-first', 'leak02-pipe-part', oa.host], arrange: (x) => x.fake.behave('leak02-first|leak02-pipe-part', { status: 500, errorBody: { error: { message: `backend ${oa.origin}/v1 failed for leak02-pipe-part`, type: 'server_error' } } }) },
      { name: 'openai 502 HTML error page', door: 'openai', key: 'leak03-openai-key', secrets: [oa.hostname, oa.port, 'leak03-openai-key'], arrange: (x) => x.fake.behave('leak03-openai-key', { raw: { status: 502, contentType: 'text/html', body: html(`upstream ${oa.host} rejected leak03-openai-key`) } }) },
      { name: 'openai connection refused', door: 'openai', key: 'leak04-openai-key', baseUrl: `http://127.0.0.1:${refused}`, secrets: ['127.0.0.1', String(refused)], arrange: () => {} },
      { name: 'openai host not found', door: 'openai', key: 'leak05-openai-key', baseUrl: 'http://leak05-upstream.invalid:8443', secrets: ['leak05-upstream', '8443'], arrange: () => {} },
      { name: 'openai stream 429 quota naming the key', door: 'openai', stream: true, key: 'leak06-openai-key', secrets: ['leak06-openai-key', oa.port], arrange: (x) => x.fake.behave('leak06-openai-key', { status: 429, errorBody: { error: { message: `You exceeded your current quota (key leak06-openai-key on ${oa.host})`, type: 'insufficient_quota' } } }) },
      {
        name: 'openai stream mid-stream error event',
        door: 'openai',
        stream: true,
        key: 'leak07-openai-key',
        secrets: ['leak07-openai-key', oa.port, oa.hostname],
        arrange: (x, model) =>
          x.fake.behave('leak07-openai-key', {
            rawStream: [
              `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`,
              `data: ${JSON.stringify({ error: { message: `key leak07-openai-key lost at ${oa.origin}`, type: 'server_error' } })}\n\n`,
            ],
          }),
      },
      { name: 'anthropic 401 echoing the key', door: 'claude', type: 14, key: 'leak08-claude-key', secrets: ['leak08-claude-key', cl.port], arrange: (x) => x.claude.behave('leak08-claude-key', { status: 401, errorBody: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key leak08-claude-key' } } }) },
      { name: 'anthropic 529 naming the host', door: 'claude', type: 14, key: 'leak09-claude-key', secrets: [cl.host, cl.port], arrange: (x) => x.claude.behave('leak09-claude-key', { status: 529, errorBody: { type: 'error', error: { type: 'overloaded_error', message: `node ${cl.host} overloaded` } } }) },
      {
        name: 'anthropic stream mid-stream error event',
        door: 'claude',
        type: 14,
        stream: true,
        key: 'leak10-claude-key',
        secrets: ['leak10-claude-key', cl.port],
        arrange: (x, model) =>
          x.claude.behave('leak10-claude-key', {
            rawStream: [
              `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } } })}\n\n`,
              `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: `leak10-claude-key failed on ${cl.host}` } })}\n\n`,
            ],
          }),
      },
      {
        name: 'gemini 400 API key not valid',
        door: 'gemini',
        type: 25,
        key: 'leak11-gemini-key',
        secrets: ['leak11-gemini-key', ge.port],
        arrange: (x) =>
          x.gemini.behave('leak11-gemini-key', { status: 400, errorBody: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid: leak11-gemini-key', details: [{ reason: 'API_KEY_INVALID' }] } } }),
      },
      { name: 'gemini 500 HTML page', door: 'gemini', type: 25, key: 'leak12-gemini-key', secrets: [ge.host, 'leak12-gemini-key'], arrange: (x) => x.gemini.behave('leak12-gemini-key', { raw: { status: 500, contentType: 'text/html', body: html(`${ge.host} leak12-gemini-key`) } }) },
      { name: 'gemini stream connection refused', door: 'gemini', type: 25, stream: true, key: 'leak13-gemini-key', baseUrl: `http://127.0.0.1:${refused}`, secrets: ['127.0.0.1', String(refused)], arrange: () => {} },
      { name: 'openai 400 caller error echoing key and host', door: 'openai', key: 'leak14-openai-key', secrets: ['leak14-openai-key', oa.port, oa.hostname], arrange: (x) => x.fake.behave('leak14-openai-key', { status: 400, errorBody: { error: { message: `Invalid 'messages' (org key leak14-openai-key, ${oa.origin})`, type: 'invalid_request_error', code: 'invalid_value' } } }) },
    ];
  };

  it('removes keys and hosts from every error a non-admin gets, and logs the full text for admins', async () => {
    const { key, userId, client } = await f.newUser({ quota: 1_000_000 });
    let keyLeaks = 0;
    let hostLeaks = 0;
    const list = cases();
    for (const [i, c] of list.entries()) {
      const model = `leak-model-${i}`;
      await f.addChannel({ type: c.type ?? 1, key: c.key, base_url: c.baseUrl ?? (c.door === 'claude' ? f.claude.url : c.door === 'gemini' ? f.gemini.url : f.fake.url), models: model });
      c.arrange(f, model);
      const res = await call(f, c.door, key, model, Boolean(c.stream));
      const [keys, hosts] = [c.secrets.filter((s) => s.startsWith('leak') && !s.includes('upstream')), c.secrets.filter((s) => !s.startsWith('leak') || s.includes('upstream'))];
      const leakedKey = keys.some((s) => res.text.includes(s));
      const leakedHost = hosts.some((s) => res.text.includes(s));
      keyLeaks += leakedKey ? 1 : 0;
      hostLeaks += leakedHost ? 1 : 0;
      expect({ case: c.name, leakedKey, leakedHost, body: res.text }).toMatchObject({ leakedKey: false, leakedHost: false });
      // A refusal and an error event inside a stream alike: a generic reason and the request id.
      if (res.status >= 400 || c.name.includes('mid-stream')) expect(res.text, c.name).toContain('request id');
      if (c.name.includes('mid-stream')) expect(res.text, c.name).toContain('upstream error (request id: ');
      // An upstream 401/402/quota is never presented as the caller's own key problem.
      expect([401, 402, 403]).not.toContain(res.status);
    }
    console.log(`leak matrix on ${dialect}: key leaked in ${keyLeaks} of ${list.length}, host in ${hostLeaks} of ${list.length}`);
    await f.flush();
    const rows = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 5).execute();
    // Every failed attempt has its row; the two mid-stream errors are delivered streams, billed as such.
    expect(rows).toHaveLength(12);
    expect(rows.some((r) => String(r.content).includes(new URL(f.fake.url).host))).toBe(true);
    expect(rows.some((r) => String(r.content).includes('leak01-openai-key'))).toBe(false);
    // The user sees each of their own failures: model, status, generic reason, request id; nothing of upstream.
    const own = await client.get('/api/log/self?log_type=5&size=50');
    const mine: Array<{ content: string; model_name: string; request_id: string; channel_id: number; metadata: Record<string, unknown> }> = own.body.data.data;
    expect(mine).toHaveLength(12);
    // The caller's own address (source_ip, loopback here) is theirs to see; everything else is checked.
    const text = JSON.stringify(mine.map((r) => ({ ...r, source_ip: undefined })));
    for (const c of list) for (const secret of c.secrets) expect({ secret, leaked: text.includes(secret) }).toEqual({ secret, leaked: false });
    for (const r of mine) {
      expect(r.model_name).toMatch(/^leak-model-/);
      expect(r.request_id).not.toBe('');
      expect(r.channel_id).toBe(0);
      expect(r.content).toMatch(/^\d{3} /);
      expect(Object.keys(r.metadata).sort()).toEqual(['code', 'door', 'reason', 'status']);
    }
    expect(mine.some((r) => r.content === '503 upstream service unavailable, please try again later')).toBe(true);
    // Admins see the upstream's own words in the same rows.
    const all = (await f.root.get(`/api/log/?log_type=5&size=50&username=${encodeURIComponent(rows[0].username)}`)).body.data.data;
    expect(all.some((r: { content: string }) => r.content.includes(new URL(f.fake.url).host))).toBe(true);
  });
});
