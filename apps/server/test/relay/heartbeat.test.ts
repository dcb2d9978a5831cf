import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { heartbeatTiming } from '../../src/relay/pipeline/flow/heartbeat.js';

const PING = '::PING\n\n';
const count = (text: string, part: string) => text.split(part).length - 1;

describe.each(testDialects())('token heartbeat on %s', (dialect) => {
  let f: RelayFixture;
  let beatKey: string;
  let plainKey: string;
  let beatUser: number;
  const saved = { ...heartbeatTiming };

  beforeAll(async () => {
    // Timeouts are 30–90 "seconds": a 30 ms second makes 30 s a 0.9 s wait, keep-alives every 0.5 s.
    Object.assign(heartbeatTiming, { secondMs: 30, intervalMs: 500 });
    f = await relayFixture(dialect);
    await f.setOption('RetryTimes', 2);
    for (const model of ['hb-model', 'hb-failover', 'hb-dead']) {
      await f.server.ctx.db.insertInto('prices').values({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    }
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ key: 'hb-slow', models: 'hb-model' });
    f.fake.behave('hb-slow', { delayMs: 2200, content: 'slow but steady' });
    await f.addChannel({ key: 'hb-broken', models: 'hb-failover,hb-dead', priority: 10 });
    f.fake.behave('hb-broken', { delayMs: 1400, status: 500 });
    await f.addChannel({ key: 'hb-spare', models: 'hb-failover', priority: 0 });
    f.fake.behave('hb-spare', { delayMs: 300, content: 'spare answer' });
    const beat = await f.newUser({ quota: 10_000_000, token: { setting: { heartbeat: { enabled: true, timeout_seconds: 30 } } } });
    beatKey = beat.key;
    beatUser = beat.userId;
    plainKey = (await f.newUser({ quota: 10_000_000 })).key;
  });
  afterAll(async () => {
    Object.assign(heartbeatTiming, saved);
    await f?.close();
  });

  const call = async (key: string, body: Record<string, unknown>, path = '/v1/chat/completions') => {
    const started = Date.now();
    const res = await fetch(`${f.url}${path}`, {
      method: 'POST',
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const headersAfter = Date.now() - started;
    return { status: res.status, type: res.headers.get('content-type') ?? '', headersAfter, text: await res.text() };
  };
  const chat = (model: string, stream: boolean) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });
  /** A capture rule on a new heartbeat token; calls `run` with its key, then drops the rule. */
  const capturing = async (run: (key: string) => Promise<void>) => {
    const { key, tokenId } = await f.newUser({ quota: 10_000_000, token: { setting: { heartbeat: { enabled: true, timeout_seconds: 30 } } } });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'token', id: tokenId, until: Math.floor(Date.now() / 1000) + 3600 }]));
    try {
      await run(key);
    } finally {
      await f.setOption('LogCaptureRules', '[]');
    }
  };
  const captureOf = async (requestId: string) => {
    let rows: Array<{ response_body: string; stream: boolean }> = [];
    await expect.poll(async () => (rows = (await f.root.get(`/api/log/capture?request_id=${requestId}`)).body.data).length, { timeout: 5000 }).toBeGreaterThan(0);
    return rows[0];
  };

  it('opens a slow stream early with SSE comments, then relays and bills the answer', async () => {
    const res = await call(beatKey, chat('hb-model', true));
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/event-stream');
    expect(res.headersAfter).toBeLessThan(2000); // the head went out before upstream answered
    expect(count(res.text, PING)).toBeGreaterThanOrEqual(2);
    const firstData = res.text.indexOf('data: ');
    expect(res.text.slice(firstData)).not.toContain('PING'); // keep-alives stop once the answer starts
    expect(res.text).toContain('"content":" steady"');
    expect(res.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', beatUser).where('model_name', '=', 'hb-model').executeTakeFirstOrThrow();
    expect(Number(log.quota)).toBe(10 + 3);
  });

  it('is invisible to the official SDK, which skips SSE comments', async () => {
    const stream = await f.openai(beatKey).chat.completions.create({ model: 'hb-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('slow but steady');
  });

  it('fails over while keeping the connection alive: the client never sees the failed attempt', async () => {
    const res = await call(beatKey, chat('hb-failover', true));
    expect(res.status).toBe(200);
    expect(count(res.text, PING)).toBeGreaterThanOrEqual(1);
    expect(res.text).not.toContain('error');
    expect(res.text).toContain('"content":" answer"');
    expect(f.fake.forKey('hb-broken').length).toBeGreaterThan(0);
  });

  it('writes the final error into the open stream, and as JSON after whitespace for non-stream', async () => {
    const stream = await call(beatKey, chat('hb-dead', true));
    expect(stream.status).toBe(200);
    const errorLine = stream.text.split('\n').find((l) => l.startsWith('data: '))!;
    const error = JSON.parse(errorLine.slice(6));
    // A plain user sees the generic reason, never the upstream's own words.
    expect(error.error.message).toMatch(/^upstream error \(request id: .+\)$/);
    expect(stream.text).not.toContain('[DONE]');

    const plain = await call(beatKey, chat('hb-dead', false));
    expect(plain.status).toBe(200);
    expect(plain.type).toContain('application/json');
    expect(plain.text.startsWith('\n')).toBe(true);
    expect(JSON.parse(plain.text).error.message).toContain('upstream error');

    const claude = await call(beatKey, { model: 'hb-dead', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }, '/v1/messages');
    expect(claude.status).toBe(200);
    expect(claude.text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"[a-z_]+","message":"upstream error/);
  });

  it('keeps the Gemini door alive too: newlines before a streamed JSON array, comments before SSE', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const url = (query: string) => `/v1beta/models/hb-model:streamGenerateContent?key=${beatKey.slice(3)}${query}`;
    const array = await call('', body, url(''));
    expect(array.status).toBe(200);
    expect(array.type).toContain('application/json');
    expect(array.text).toMatch(/^\n+\[/);
    const chunks = JSON.parse(array.text) as Array<{ candidates?: Array<{ content: { parts: Array<{ text?: string }> } }> }>;
    expect(chunks.map((c) => c.candidates?.[0]?.content.parts.map((p) => p.text ?? '').join('') ?? '').join('')).toBe('slow but steady');
    const sse = await call('', body, url('&alt=sse'));
    expect(sse.text.startsWith(PING)).toBe(true);
    expect(sse.text).toContain('data: {');
  });

  it('answers a slow non-stream request as valid JSON after newline keep-alives', async () => {
    const res = await call(beatKey, chat('hb-model', false));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^\n\n+\{/);
    expect(JSON.parse(res.text).choices[0].message.content).toBe('slow but steady');
  });

  it('keeps the keep-alives in a captured stream: the capture is what the client received', async () => {
    await capturing(async (key) => {
      const gemini = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
      const geminiUrl = `/v1beta/models/hb-model:streamGenerateContent?key=${key.slice(3)}`;
      for (const [path, body, start] of [
        ['/v1/chat/completions', chat('hb-model', true), /^(::PING\n\n)+data: /],
        [geminiUrl, gemini, /^\n+\[/],
        [`${geminiUrl}&alt=sse`, gemini, /^(::PING\n\n)+data: /],
      ] as const) {
        const res = await fetch(`${f.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const text = await res.text();
        expect(text).toMatch(start);
        const row = await captureOf(String(res.headers.get('x-oneapi-request-id')));
        expect({ path, body: row.response_body }).toEqual({ path, body: text });
      }
    });
  });

  it('keeps the keep-alives in a captured non-stream answer: the capture is what the client received', async () => {
    await capturing(async (key) => {
      const res = await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(chat('hb-model', false)) });
      const text = await res.text();
      expect(text).toMatch(/^\n\n+\{/);
      const row = await captureOf(String(res.headers.get('x-oneapi-request-id')));
      expect(row).toMatchObject({ stream: false, response_body: text });
    });
  });

  it('sends nothing early for a token without heartbeat', async () => {
    const res = await call(plainKey, chat('hb-model', true));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('PING');
    expect(res.headersAfter).toBeGreaterThanOrEqual(2000);
    const dead = await call(plainKey, chat('hb-dead', true));
    expect(dead.status).toBe(502); // an upstream 500 is a bad gateway for the caller
  });
});
