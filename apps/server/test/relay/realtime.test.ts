import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { REDIS_URL, redisAvailable, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { collect } from './ws-events.js';
import { realtimeTiming } from '../../src/relay/realtime/session.js';

describe.each(testDialects())('realtime WebSocket relay on %s', (dialect) => {
  let f: RelayFixture;
  let fake: FakeRealtime;
  const saved = { ...realtimeTiming };

  beforeAll(async () => {
    fake = new FakeRealtime();
    await fake.start();
    const redis: Record<string, string> = dialect !== 'sqlite' && redisAvailable() ? { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: `test:rt${Math.random().toString(36).slice(2, 8)}:` } : {};
    f = await relayFixture(dialect, redis);
    await f.setOption('RetryTimes', 1);
    await f.server.ctx.db.insertInto('prices').values({ model: 'rt-failover', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ key: 'rt-ok', base_url: fake.url, models: 'test-model,rt-failover' });
    await f.addChannel({ key: 'rt-refuse', base_url: fake.url, models: 'rt-failover', priority: 10 });
    fake.refuse.set('rt-refuse', 503);
  });
  afterAll(async () => {
    Object.assign(realtimeTiming, saved);
    await f?.close();
    await fake?.close();
  });

  const wsUrl = (model: string) => `${f.url.replace('http', 'ws')}/v1/realtime?model=${model}`;

  it('relays a session for the official SDK and bills every response once the session ends', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    // The SDK always dials wss://; a plain TCP connection stands in for TLS in front of the gateway.
    const { port } = new URL(f.url);
    const rt = new OpenAIRealtimeWS({ model: 'test-model', options: { createConnection: () => connect(Number(port), '127.0.0.1') } as never }, f.openai(user.key));
    const seen: string[] = [];
    rt.on('event', (e) => seen.push(e.type));
    const done = new Promise<void>((resolve) => {
      let n = 0;
      rt.on('response.done', () => ++n === 2 && resolve());
    });
    await once(rt.socket, 'open');
    rt.send({ type: 'response.create' });
    rt.send({ type: 'response.create' });
    await done;
    rt.close();
    await once(rt.socket, 'close');
    expect(seen).toContain('session.created');
    expect(seen.filter((t) => t === 'response.output_text.delta')).toHaveLength(2);
    const handshake = fake.handshakes.at(-1)!;
    expect(handshake.url).toBe('/v1/realtime?model=test-model');
    expect(handshake.headers.authorization).toBe('Bearer rt-ok');
    await new Promise((r) => setTimeout(r, 100));
    await f.flush();
    const log = await f.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', user.userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ model_name: 'test-model', content: 'realtime session', is_stream: 1 });
    expect([Number(log.quota), Number(log.prompt_tokens), Number(log.completion_tokens)]).toEqual([60, 40, 20]);
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(1_000_000 - 60);
  });

  it('takes the key from the subprotocol, answers with the realtime protocol and fails over a refused channel', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    const ws = new WebSocket(wsUrl('rt-failover'), ['realtime', `openai-insecure-api-key.${user.key}`]);
    const s = collect(ws);
    await once(ws, 'open');
    expect(ws.protocol).toBe('realtime');
    expect((await s.waitFor('session.created'))[0].session.model).toBe('rt-failover');
    const keys = fake.handshakes.slice(-2).map((h) => h.headers.authorization);
    expect(keys).toEqual(['Bearer rt-refuse', 'Bearer rt-ok']);
    expect(fake.handshakes.at(-1)!.headers['sec-websocket-protocol']).toBe('realtime'); // the key stays here
    ws.close();
    await s.closed;
  });

  it('refuses a bad key or a missing model before upgrading', async () => {
    const bad = new WebSocket(wsUrl('test-model'), { headers: { authorization: `Bearer sk-${'x'.repeat(48)}` } });
    const [, res] = await once(bad, 'unexpected-response');
    expect(res.statusCode).toBe(401);
    const user = await f.newUser({ quota: 1_000_000 });
    const noModel = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime`, { headers: { authorization: `Bearer ${user.key}` } });
    const [, res2] = await once(noModel, 'unexpected-response');
    expect(res2.statusCode).toBe(400);
    let body = '';
    for await (const chunk of res2) body += chunk;
    expect(JSON.parse(body).error.message).toContain('model is required');
  });

  it('passes an upstream close code on, and reports a dropped upstream as 1011', async () => {
    const user = await f.newUser({ quota: 1_000_000 });
    for (const [event, code] of [['test.close', 4001], ['test.drop', 1011]] as const) {
      const ws = new WebSocket(wsUrl('test-model'), { headers: { authorization: `Bearer ${user.key}` } });
      const s = collect(ws);
      await once(ws, 'open');
      ws.send(JSON.stringify({ type: event }));
      expect(await s.closed).toBe(code);
    }
  });

  it('closes an idle session', async () => {
    Object.assign(realtimeTiming, { idleMs: 300 });
    try {
      const user = await f.newUser({ quota: 1_000_000 });
      const ws = new WebSocket(wsUrl('test-model'), { headers: { authorization: `Bearer ${user.key}` } });
      const s = collect(ws);
      await once(ws, 'open');
      expect(await s.closed).toBe(1000);
    } finally {
      Object.assign(realtimeTiming, saved);
    }
  });
});
