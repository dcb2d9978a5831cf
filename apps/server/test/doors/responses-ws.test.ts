import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { responsesWsTiming } from '../../src/relay/responses/ws-session.js';

type Event = Record<string, any> & { type: string };
const ENDS = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

/** Sends one response.create and collects its events up to the one that ends it. */
function turn(ws: ResponsesWS, body: Record<string, unknown>): Promise<Event[]> {
  return new Promise((resolve) => {
    const events: Event[] = [];
    const onEvent = (event: Event) => {
      events.push(event);
      if (!ENDS.has(event.type)) return;
      ws.off('event', onEvent as never);
      resolve(events);
    };
    ws.on('event', onEvent as never);
    ws.send({ type: 'response.create', ...body } as never);
  });
}

/** The official SDK's WebSocket client on the gateway; API errors arrive as events (the listener keeps them from being unhandled). */
function connect(f: DoorFixture, key: string, headers?: Record<string, string>): ResponsesWS {
  const ws = new ResponsesWS(f.openai(key), headers ? { headers } : undefined);
  ws.on('error', () => {});
  return ws;
}

/** The status of a handshake the gateway refuses. */
async function handshakeStatus(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const ws = new WebSocket(url, { headers });
  ws.on('error', () => {}); // the refused handshake is aborted below
  const [, res] = (await once(ws, 'unexpected-response')) as [unknown, import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of res) body += chunk;
  ws.terminate();
  return { status: res.statusCode ?? 0, body };
}

describe.each(testDialects())('Responses WebSocket mode on %s', (dialect) => {
  let f: DoorFixture;
  const db = () => f.server.ctx.db;
  const logs = async (userId: number) => {
    await f.flush();
    return db().selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id').execute();
  };
  const quotaOf = async (userId: number) => Number((await db().selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);

  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['ws-openai', 'ws-claude', 'ws-broken']) await f.unitPrice(m);
    await f.addChannel({ type: 1, key: 'ws-openai-key', models: 'ws-openai' });
    await f.addChannel({ type: 1, key: 'ws-broken-key', models: 'ws-broken' });
    await f.addChannel({ type: 1, key: 'ws-slow-key', models: 'ws-slow' });
    await f.unitPrice('ws-slow');
    f.fake.behave('ws-slow-key', { content: 'one two three four five six', chunkDelayMs: 40 });
    await f.addChannel({ type: 1, key: 'ws-held-key', models: 'ws-held' });
    await f.unitPrice('ws-held');
    f.fake.behave('ws-held-key', { content: 'Finally', hold: true });
    await f.addChannel({ type: 14, key: 'ws-claude-key', base_url: f.claude.url, models: 'ws-claude' });
    f.fake.behave('ws-openai-key', { content: 'Hello from the socket' });
    f.fake.behave('ws-broken-key', { status: 500, errorBody: { error: { message: 'internal secret detail of ws-broken-key', type: 'server_error' } } });
  });
  afterAll(async () => f?.close());

  it('answers two OpenAI responses on one socket, the second continuing the first, billed like HTTP', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const before = await quotaOf(user.userId);
    // As Codex connects.
    const ws = connect(f, user.key, { 'openai-beta': 'responses_websockets=2026-02-06' });
    const first = await turn(ws, { model: 'ws-openai', input: 'Hi' });
    expect(first.map((e) => e.type)).toEqual([
      'response.created', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    const id = first.at(-1)!.response.id;
    const second = await turn(ws, { model: 'ws-openai', input: 'Again', previous_response_id: id, stream: false });
    expect(second.at(-1)!.type).toBe('response.completed');
    ws.close();
    const sent = f.fake.forKey('ws-openai-key').at(-1)!.body;
    expect(sent).toMatchObject({ previous_response_id: id, input: 'Again', stream: true });
    expect(sent.type).toBeUndefined();

    // The same request over HTTP streaming costs the same.
    const other = await f.newUser({ quota: 1_000_000 });
    for await (const _ of await f.openai(other.key).responses.create({ model: 'ws-openai', input: 'Hi', stream: true })) void _;
    const httpRows = await logs(other.userId);
    const rows = await logs(user.userId);
    expect(rows).toHaveLength(2);
    expect(rows[0].quota).toBe(httpRows[0].quota);
    expect(rows[0].quota).toBe(9 + 4); // the fake's usage: 9 input tokens, one output token per word at 1 quota each
    expect(before - (await quotaOf(user.userId))).toBe(rows[0].quota + rows[1].quota);
  });

  it('continues an unstored response on the socket (as OpenAI keeps it in connection memory): only the latest one', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const ws = connect(f, user.key);
    // As Codex does: a prewarm that generates nothing, then the turn naming it with only the new input.
    const system = { type: 'message', role: 'developer', content: 'Be brief.' };
    const prewarm = await turn(ws, { model: 'ws-openai', input: [system], store: false, generate: false });
    const warmId = prewarm.at(-1)!.response.id;
    const first = await turn(ws, { model: 'ws-openai', input: 'Hi', store: false, previous_response_id: warmId });
    expect(first.at(-1)!.type).toBe('response.completed');
    let sent = f.fake.forKey('ws-openai-key').at(-1)!.body;
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input).toEqual([system, { type: 'message', role: 'user', content: 'Hi' }]);
    const firstId = first.at(-1)!.response.id;
    const second = await turn(ws, { model: 'ws-openai', input: 'Again', store: false, previous_response_id: firstId });
    expect(second.at(-1)!.type).toBe('response.completed');
    sent = f.fake.forKey('ws-openai-key').at(-1)!.body;
    expect(sent.input.map((i: any) => i.role)).toEqual(['developer', 'user', 'assistant', 'user']);
    expect(sent.input[2].content[0].text).toBe('Hello from the socket');
    // An older unstored response is no longer held: upstream answers for it, as OpenAI would.
    const stale = await turn(ws, { model: 'ws-openai', input: 'Back', store: false, previous_response_id: firstId });
    expect(stale.at(-1)).toMatchObject({ type: 'error', status: 400 });
    expect(f.fake.forKey('ws-openai-key').at(-1)!.body.previous_response_id).toBe(firstId);
    ws.close();
  });

  it('continues a converted Anthropic conversation on the socket and then over HTTP', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const ws = connect(f, user.key);
    f.claude.behave('ws-claude-key', { content: 'Nice to meet you Ada' });
    const first = await turn(ws, { model: 'ws-claude', input: 'My name is Ada' });
    expect(first[0].type).toBe('response.created');
    expect(first.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Nice to meet you Ada');
    const firstId = first.at(-1)!.response.id;
    f.claude.behave('ws-claude-key', { content: 'You are Ada' });
    const second = await turn(ws, { model: 'ws-claude', input: 'What is my name?', previous_response_id: firstId });
    expect(second.at(-1)).toMatchObject({ type: 'response.completed', response: { previous_response_id: firstId } });
    expect(f.claude.forKey('ws-claude-key').at(-1)!.body.messages).toHaveLength(3);
    ws.close();

    f.claude.behave('ws-claude-key', { content: 'Bye Ada' });
    const third = await f.openai(user.key).responses.create({ model: 'ws-claude', input: 'Bye', previous_response_id: second.at(-1)!.response.id });
    expect(third.output_text).toBe('Bye Ada');
    expect(f.claude.forKey('ws-claude-key').at(-1)!.body.messages).toHaveLength(5);
    const rows = await logs(user.userId);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.quota > 0)).toBe(true);
  });

  it('reports an upstream failure and a second response.create in flight in-band; the socket stays usable', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const ws = connect(f, user.key);
    const failed = await turn(ws, { model: 'ws-broken', input: 'Hi' });
    expect(failed).toHaveLength(1);
    // Exactly what the HTTP door tells a non-admin: its status, a generic reason and the request id, nothing of the channel.
    const http = await f.openai(user.key).responses.create({ model: 'ws-broken', input: 'Hi', stream: true }).catch((e) => e);
    expect(failed[0]).toMatchObject({ type: 'error', status: http.status, error: { type: http.error.type, code: http.error.code } });
    const withoutId = (m: string) => m.replace(/request id: [^)]+/, '');
    expect(withoutId(failed[0].error.message)).toBe(withoutId(http.error.message));
    expect(failed[0].error.message).toMatch(/request id: /);
    expect(JSON.stringify(failed[0])).not.toMatch(/secret|ws-broken-key/);

    const events: Event[] = [];
    const completed = new Promise<void>((resolve) =>
      ws.on('event', (e) => {
        events.push(e as Event);
        if (e.type === 'response.completed') resolve();
      }),
    );
    ws.send({ type: 'response.create', model: 'ws-openai', input: 'Hi' } as never);
    ws.send({ type: 'response.create', model: 'ws-openai', input: 'Too soon' } as never);
    await completed;
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 400, error: { code: 'response_already_in_flight' } });
    expect(events.filter((e) => e.type === 'response.created')).toHaveLength(1);

    ws.sendRaw('not json');
    const bad = await new Promise<Event>((resolve) => ws.on('event', (e) => e.type === 'error' && resolve(e as Event)));
    expect(bad.error.code).toBe('invalid_json');
    expect((await turn(ws, { model: 'ws-openai', input: 'Still here' })).at(-1)!.type).toBe('response.completed');
    ws.close();
    // Only the two answered responses are billed.
    expect((await logs(user.userId)).filter((r) => r.quota > 0)).toHaveLength(2);
  });

  it('refuses a response the balance cannot cover in-band, billing nothing', async () => {
    const user = await f.newUser({ quota: 1 });
    const ws = connect(f, user.key);
    const events = await turn(ws, { model: 'ws-openai', input: 'Hi' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', status: 402, error: { type: 'insufficient_quota' } });
    ws.close();
    expect(await quotaOf(user.userId)).toBe(1);
    expect((await logs(user.userId)).filter((r) => r.quota > 0)).toHaveLength(0);
  });

  it('answers the handshake 401 for a bad token and 426 when the mode is turned off', async () => {
    const url = `${f.url.replace('http', 'ws')}/v1/responses`;
    const bad = await handshakeStatus(url, { authorization: 'Bearer sk-not-a-token' });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body).error.message).toMatch(/request id: /);

    const user = await f.newUser({ quota: 1_000_000 });
    await f.setOption('ResponsesWebSocketEnabled', false);
    try {
      const off = await handshakeStatus(url, { authorization: `Bearer ${user.key}`, 'openai-beta': 'responses_websockets=2026-02-06' });
      expect(off.status).toBe(426);
    } finally {
      await f.setOption('ResponsesWebSocketEnabled', true);
    }
    // A plain GET (no upgrade) is told to upgrade too.
    expect((await fetch(`${f.url}/v1/responses`, { headers: { authorization: `Bearer ${user.key}` } })).status).toBe(426);
  });

  it('holds one of the user\'s in-flight slots while a response runs, as an HTTP request does', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    await f.setOption('UserMaxInflight', 1);
    try {
      const ws = connect(f, user.key);
      const answered = turn(ws, { model: 'ws-held', input: 'Wait' });
      await vi.waitFor(() => expect(f.fake.holding).toBe(1), { timeout: 10_000, interval: 20 });
      const refused = await f.openai(user.key).responses.create({ model: 'ws-openai', input: 'Meanwhile' }).catch((e) => e);
      expect(refused.status).toBe(429);
      f.fake.release();
      expect((await answered).at(-1)!.type).toBe('response.completed');
      // The slot is given back with the response.
      expect((await f.openai(user.key).responses.create({ model: 'ws-openai', input: 'Now' })).status).toBe('completed');
      ws.close();
    } finally {
      await f.setOption('UserMaxInflight', 128);
    }
  });

  it('cancels a response whose client left before upstream answered, billing nothing (as HTTP)', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const before = await quotaOf(user.userId);
    const abandoned = f.fake.abandoned;
    const ws = connect(f, user.key);
    ws.send({ type: 'response.create', model: 'ws-held', input: 'Wait' } as never);
    await vi.waitFor(() => expect(f.fake.holding).toBe(1), { timeout: 10_000, interval: 20 });
    ws.close();
    await vi.waitFor(() => expect(f.fake.abandoned).toBe(abandoned + 1), { timeout: 10_000, interval: 20 });
    f.fake.release();
    const rows = await vi.waitFor(async () => {
      const found = await logs(user.userId);
      if (!found.length) throw new Error('not logged yet');
      return found;
    }, { timeout: 10_000, interval: 50 });
    expect(rows).toEqual([expect.objectContaining({ quota: 0, content: 'client disconnected before the first byte' })]);
    expect(await quotaOf(user.userId)).toBe(before);
  });

  it('bills a response whose client left mid-stream like an HTTP client that left', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const before = await quotaOf(user.userId);
    const ws = connect(f, user.key);
    const firstDelta = new Promise<void>((resolve) => ws.on('event', (e) => e.type === 'response.output_text.delta' && resolve()));
    ws.send({ type: 'response.create', model: 'ws-slow', input: 'Count' } as never);
    await firstDelta;
    ws.close();
    // The gateway keeps reading upstream for its usage, then bills it.
    const rows = await vi.waitFor(async () => {
      const found = await logs(user.userId);
      if (!found.length) throw new Error('not billed yet');
      return found;
    }, { timeout: 10_000, interval: 50 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quota: 9 + 6, content: 'client disconnected; billed on upstream usage' });
    expect(before - (await quotaOf(user.userId))).toBe(15);
  });

  it('ends a connection at its time limit with an in-band error', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const saved = responsesWsTiming.maxMs;
    responsesWsTiming.maxMs = 300;
    try {
      const ws = connect(f, user.key);
      const raw = (ws.socket as unknown as { platformSocket: WebSocket }).platformSocket;
      const events: Event[] = [];
      ws.on('event', (e) => void events.push(e as Event));
      const [code] = (await once(raw, 'close')) as [number];
      expect(code).toBe(1000);
      expect(events).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'websocket_connection_limit_reached' }) })]);
    } finally {
      responsesWsTiming.maxMs = saved;
    }
  });

  it('closes a socket left idle', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    await f.setOption('ResponsesWebSocketIdleSeconds', 1);
    try {
      const ws = connect(f, user.key);
      const raw = (ws.socket as unknown as { platformSocket: WebSocket }).platformSocket;
      const [code, reason] = (await once(raw, 'close')) as [number, Buffer];
      expect([code, reason.toString()]).toEqual([1000, 'idle timeout']);
    } finally {
      await f.setOption('ResponsesWebSocketIdleSeconds', 120);
    }
  });
});
