import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';

const now = () => Math.floor(Date.now() / 1000);

describe.each(testDialects())('opt-in capture of relay bodies on %s', (dialect) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await relayFixture(dialect);
    await f.addChannel({ key: 'cap-key', models: 'test-model' });
  });
  afterAll(async () => f?.close());

  const send = async (key: string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content }], ...extra }),
    });
    await res.text();
    return { status: res.status, requestId: String(res.headers.get('x-oneapi-request-id')) };
  };
  const captures = async (requestId: string) => {
    // Captures are written beside the answer: wait for the row, not a fixed time.
    let rows: Array<Record<string, string | number>> = [];
    await expect.poll(async () => (rows = (await f.root.get(`/api/log/capture?request_id=${requestId}`)).body.data).length, { timeout: 5000 }).toBeGreaterThan(0);
    return rows;
  };

  it('costs nothing and captures nothing while no rule is live', async () => {
    expect(relayState(f.server.ctx).capture.active).toBe(false);
    const { key } = await f.newUser({ quota: 1_000_000 });
    const { requestId } = await send(key, 'no capture here');
    const rows = await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', requestId).execute();
    expect(rows).toHaveLength(0);
  });

  it('captures a named user\'s request and answer with keys, Authorization and configured patterns redacted, size-capped', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    const other = await f.newUser({ quota: 1_000_000 });
    const bad = await f.root.put('/api/option/', { key: 'LogCaptureRules', value: JSON.stringify([{ kind: 'person', id: 1, until: 1 }]) });
    expect(bad.status).toBe(400);
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureRedactPatterns', 'ACCT-\\d+');
    await f.setOption('LogCaptureMaxBytes', 1024);
    expect(relayState(f.server.ctx).capture.active).toBe(true);
    const { requestId } = await send(key, `my account ACCT-12345 and key sk-secretsecret123456 ${'x'.repeat(3000)}`, { api_key: 'plain-secret-value' });
    const [row] = await captures(requestId);
    expect(row).toMatchObject({ user_id: userId, status: 200, stream: false });
    const all = JSON.stringify(row);
    for (const secret of ['ACCT-12345', 'sk-secretsecret123456', 'plain-secret-value', key.slice(3)]) expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
    expect(String(row.request_headers)).toContain('"authorization":"[redacted]"');
    expect(String(row.request_body)).toContain('[cut at 1024 bytes]');
    expect(String(row.response_body)).toContain('chat.completion');
    // Another user's requests are not captured.
    const plain = await send(other.key, 'not me');
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', plain.requestId).execute()).toHaveLength(0);
  });

  it('captures a failed attempt by channel with the upstream answer, for root only; an expired rule captures nothing', async () => {
    const channel = await f.addChannel({ key: 'cap-fail', models: 'fail-model' });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'channel', id: channel, until: now() + 3600 }]));
    f.fake.behave('cap-fail', { status: 400, errorBody: { error: { message: 'bad thing', type: 'invalid_request_error' } } });
    const { key, client } = await f.newUser({ quota: 1_000_000 });
    const res = await fetch(`${f.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fail-model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).toBe(400);
    const requestId = String(res.headers.get('x-oneapi-request-id'));
    const [row] = await captures(requestId);
    expect(row).toMatchObject({ channel_id: channel, status: 400 });
    expect(String(row.response_body)).toContain('bad thing');
    expect((await client.get(`/api/log/capture?request_id=${requestId}`)).status).toBe(403);
    expect((await f.root.get('/api/log/capture')).status).toBe(400);

    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'channel', id: channel, until: now() - 1 }]));
    expect(relayState(f.server.ctx).capture.active).toBe(false);
    f.fake.behave('cap-fail', {});
    const later = await send(key, 'after expiry');
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', later.requestId).execute()).toHaveLength(0);
  });

  const streamFrom = async (key: string, model: string, onChunk?: (text: string) => boolean) => {
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'stream please' }] }),
    });
    const requestId = String(res.headers.get('x-oneapi-request-id'));
    const reader = res.body!.getReader();
    let received = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      received += Buffer.from(r.value).toString();
      if (onChunk?.(received)) {
        await reader.cancel();
        break;
      }
    }
    return { requestId, received };
  };

  it('captures a streamed answer as the client received it, redacted and size-capped, written after the stream ends', async () => {
    await f.addChannel({ key: 'cap-stream', models: 'stream-model' });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureRedactPatterns', 'ACCT-\\d+');
    await f.setOption('LogCaptureMaxBytes', 16384);
    f.fake.behave('cap-stream', { content: 'hello ACCT-777 and sk-streamsecret12345 bye' });
    const { requestId, received } = await streamFrom(key, 'stream-model');
    expect(received).toContain('ACCT-777');
    const [row] = await captures(requestId);
    expect(row).toMatchObject({ user_id: userId, status: 200, stream: true });
    const body = String(row.response_body);
    // The same event stream the client read, with only the secrets replaced.
    expect(body).toBe(received.replace('ACCT-777', '[redacted]').replace('sk-streamsecret12345', '[redacted]'));
    expect(body).toContain('data: [DONE]');

    await f.setOption('LogCaptureMaxBytes', 1024);
    f.fake.behave('cap-stream', { content: Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ') });
    const long = await streamFrom(key, 'stream-model');
    const [cut] = await captures(long.requestId);
    expect(String(cut.response_body)).toMatch(/^data: .*… \[cut at 1024 bytes\]$/s);
    expect(String(cut.response_body).startsWith(long.received.slice(0, 1000))).toBe(true);
  });

  it("labels Gemini's JSON-array stream as a stream, kept as the client received it", async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureMaxBytes', 16384);
    f.fake.behave('cap-stream', { content: 'array of chunks' });
    const res = await fetch(`${f.url}/v1beta/models/stream-model:streamGenerateContent?key=${key.slice(3)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'stream please' }] }] }),
    });
    expect(res.headers.get('content-type')).toContain('application/json');
    const received = await res.text();
    expect(received.startsWith('[')).toBe(true);
    const [row] = await captures(String(res.headers.get('x-oneapi-request-id')));
    expect(row).toMatchObject({ user_id: userId, status: 200, stream: true, response_body: received });
  });

  it('captures a converted non-stream answer in the shape the client received, not the channel\'s', async () => {
    await f.addChannel({ key: 'cap-convert', models: 'convert-model' });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureMaxBytes', 16384);
    f.fake.behave('cap-convert', { content: 'a converted answer' });
    // Gemini's door on an OpenAI channel: upstream answers a chat completion, the client gets candidates.
    const res = await fetch(`${f.url}/v1beta/models/convert-model:generateContent?key=${key.slice(3)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'answer please' }] }] }),
    });
    expect(res.status).toBe(200);
    const received = await res.text();
    expect(JSON.parse(received).candidates[0].content.parts[0].text).toBe('a converted answer');
    const [row] = await captures(String(res.headers.get('x-oneapi-request-id')));
    expect(row).toMatchObject({ user_id: userId, status: 200, stream: false, response_body: received });
    expect(String(row.response_body)).not.toContain('chat.completion');
  });

  it("blanks secret-named fields in Gemini's JSON-array stream as in SSE, keeping its token counts", async () => {
    await f.addChannel({ key: 'cap-tools', models: 'tools-model' });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureMaxBytes', 16384);
    // The model calls a tool with a credential among its arguments: Gemini's chunk carries it as a JSON field.
    const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'login', arguments: JSON.stringify({ user: 'ann', api_key: 'plain-secret-arg' }) } };
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'tools-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const usage = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'tools-model', choices: [], usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } })}\n\n`;
    f.fake.behave('cap-tools', { rawStream: [chunk({ role: 'assistant', content: 'Signing in.' }), chunk({ tool_calls: [call] }), chunk({}, 'tool_calls'), usage, 'data: [DONE]\n\n'] });
    const res = await fetch(`${f.url}/v1beta/models/tools-model:streamGenerateContent?key=${key.slice(3)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'log me in' }] }] }),
    });
    const received = await res.text();
    expect(received).toContain('plain-secret-arg');
    const [row] = await captures(String(res.headers.get('x-oneapi-request-id')));
    const body = String(row.response_body);
    expect(body).not.toContain('plain-secret-arg');
    const chunks = JSON.parse(body) as Array<Record<string, any>>;
    const args = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).find((part) => part.functionCall)?.functionCall.args;
    expect(args).toEqual({ user: 'ann', api_key: '[redacted]' });
    // A chunk without a secret stays exactly as sent; usage counts are not secrets.
    expect(received.split(',\r\n').length).toBeGreaterThan(1);
    expect(body.split(',\r\n')[0]).toBe(received.split(',\r\n')[0]);
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: 7, candidatesTokenCount: 5, totalTokenCount: 12 });
  });

  it('captures what was sent when upstream breaks off mid-stream or the client leaves, and says so', async () => {
    await f.addChannel({ key: 'cap-broken', models: 'broken-model' });
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: userId, until: now() + 3600 }]));
    await f.setOption('LogCaptureMaxBytes', 16384);
    f.fake.behave('cap-broken', { content: 'one two three four five six', cutAfterChunks: 3 });
    const broken = await streamFrom(key, 'broken-model');
    const [row] = await captures(broken.requestId);
    expect(String(row.response_body)).toContain('"content":" three"');
    expect(String(row.response_body)).not.toContain('four');
    expect(String(row.response_body)).toContain('stream_interrupted');
    expect(String(row.response_body).startsWith(broken.received)).toBe(true);

    f.fake.behave('cap-broken', { content: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 10 });
    const left = await streamFrom(key, 'broken-model', (text) => text.includes('"content":" w2"'));
    const [gone] = await captures(left.requestId);
    const body = String(gone.response_body);
    expect(body).toContain('"content":" w2"');
    expect(body).not.toContain('w29');
    expect(body).toMatch(/\n\[.*client disconnected.*\]$/);
  });

  it('collects nothing for a stream no rule names', async () => {
    const { key } = await f.newUser({ quota: 1_000_000 });
    const watched = await f.newUser({ quota: 1_000_000 });
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: watched.userId, until: now() + 3600 }]));
    f.fake.behave('cap-stream', {});
    const capture = relayState(f.server.ctx).capture;
    const taps = vi.spyOn(capture, 'streamTap');
    try {
      const { requestId, received } = await streamFrom(key, 'stream-model');
      expect(received).toContain('[DONE]');
      expect(taps).not.toHaveBeenCalled();
      await f.setOption('LogCaptureRules', '[]');
      await streamFrom(key, 'stream-model');
      expect(taps).not.toHaveBeenCalled();
      expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', requestId).execute()).toHaveLength(0);
    } finally {
      taps.mockRestore();
    }
  });

  it('deletes captures older than the retention period', async () => {
    await f.server.ctx.db.insertInto('log_captures').values({ created_at: now() - 30 * 86_400, request_id: 'old-one' }).execute();
    await f.setOption('LogCaptureRetentionDays', 7);
    expect(await relayState(f.server.ctx).capture.prune(true)).toBeGreaterThanOrEqual(1);
    expect(await f.server.ctx.db.selectFrom('log_captures').selectAll().where('request_id', '=', 'old-one').execute()).toHaveLength(0);
  });
});
