import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { REDIS_URL, redisAvailable, startTestServer, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { collect, dialRealtime, openRealtime } from './ws-events.js';
import { relayState } from '../../src/relay/state.js';
import { realtimeTiming } from '../../src/relay/realtime/session.js';
import { estimateBytes } from '../../src/relay/tokenizer.js';

/** What one fake realtime response (20 in, 10 out) costs on test-model (1 quota per token each way). */
const R = 30;
/** A user message sent before the first response: the input the response's hold counts. */
const SAY = JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me something short about the sea, please.' }] } });
/** The worst case of a session's first response after SAY with a 10-token output cap (PreConsumedQuota 0). */
const W = estimateBytes(Buffer.byteLength(SAY)) + 10;
const create = (response: Record<string, unknown> = { max_output_tokens: 10 }) => JSON.stringify({ type: 'response.create', response });

/**
 * Realtime responses hold their worst case before they run (issue 26): the balance, a token's
 * remaining quota and the TPM / spending caps are never passed, however many sessions ask at once.
 */
describe.each(testDialects())('realtime response holds on %s', (dialect) => {
  let f: RelayFixture;
  let fake: FakeRealtime;

  beforeAll(async () => {
    fake = new FakeRealtime();
    await fake.start();
    const redis: Record<string, string> = dialect !== 'sqlite' && redisAvailable() ? { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: `test:rth${Math.random().toString(36).slice(2, 8)}:` } : {};
    f = await relayFixture(dialect, redis);
    await f.setOption('PreConsumedQuota', 0);
    await f.addChannel({ key: 'rt-hold', base_url: fake.url, models: 'test-model' });
  });
  afterAll(async () => {
    await f?.close();
    await fake?.close();
  });

  const dial = (key: string) => dialRealtime(f.url, key);
  const session = (key: string) => openRealtime(f.url, key);
  const creates = () => fake.received.filter((e: any) => e.type === 'response.create').length;
  /** Every charge written and every slice back: the balance columns are exact. */
  async function settled(u: { userId: number; client: any }) {
    await f.flush();
    // A charge taken after its response's hold was gone (a refused VAD response) may leave a slice leased; give it back.
    await relayState(f.server.ctx).leases.settleUp();
    const logs = await f.server.ctx.db.selectFrom('logs').select('quota').where('user_id', '=', u.userId).where('type', '=', 2).execute();
    const balance = (await u.client.get('/api/user/self')).body.data.quota as number;
    return { balance, logged: logs.reduce((sum, l) => sum + Number(l.quota), 0), rows: logs.length };
  }

  it('serves concurrent responses of several sessions only as far as the balance holds their worst case', async () => {
    const start = 2 * W + 5;
    const u = await f.newUser({ quota: start });
    const sessions = await Promise.all([1, 2, 3].map(() => session(u.key)));
    for (const s of sessions) s.ws.send(SAY);
    const before = creates();
    // Slow answers: every response is still running when the last one asks for its hold.
    for (const s of sessions) s.ws.send(create({ max_output_tokens: 10, metadata: { test_delay_ms: 2_000 } }));
    await expect.poll(() => sessions.flatMap((s) => s.events).filter((e) => e.type === 'response.done' || e.type === 'error').length, { timeout: 10_000 }).toBe(3);
    const done = sessions.flatMap((s) => s.events.filter((e) => e.type === 'response.done'));
    const errors = sessions.flatMap((s) => s.events.filter((e) => e.type === 'error'));
    expect(done).toHaveLength(2);
    expect(errors).toHaveLength(1);
    expect(errors[0].error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota', param: null });
    expect(errors[0].error.message).toContain(`user quota is not enough for this response: its worst case is ${W} quota`);
    expect(creates() - before).toBe(2);
    // Refused, not closed.
    for (const s of sessions) expect(s.ws.readyState).toBe(WebSocket.OPEN);
    for (const s of sessions) s.ws.close();
    await Promise.all(sessions.map((s) => s.closed));
    await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
    const after = await settled(u);
    expect(after.balance).toBe(start - 2 * R);
    expect(after.logged).toBe(2 * R);
    expect(after.rows).toBe(3);
  });

  it('holds the balance across nodes: sessions on two gateways sharing the database serve only what it covers', async () => {
    const other = await startTestServer(dialect, { reuse: f.server });
    try {
      const otherUrl = await other.listen();
      const start = 2 * W + 5;
      const u = await f.newUser({ quota: start });
      const at = async (url: string) => {
        const ws = dialRealtime(url, u.key);
        const s = collect(ws);
        await once(ws, 'open');
        return { ws, ...s };
      };
      const sessions = await Promise.all([at(f.url), at(f.url), at(otherUrl), at(otherUrl)]);
      for (const s of sessions) s.ws.send(SAY);
      for (const s of sessions) s.ws.send(create({ max_output_tokens: 10, metadata: { test_delay_ms: 2_000 } }));
      const answered = () => sessions.flatMap((s) => s.events.filter((e) => e.type === 'response.done' || e.type === 'error'));
      await expect.poll(() => answered().length, { timeout: 10_000 }).toBe(4);
      expect(answered().filter((e) => e.type === 'response.done')).toHaveLength(2);
      for (const s of sessions) s.ws.close();
      await Promise.all(sessions.map((s) => s.closed));
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId) + relayState(other.ctx).inflight.of(u.userId)).toBe(0);
      await relayState(other.ctx).recorder.flush();
      await relayState(other.ctx).leases.settleUp();
      const after = await settled(u);
      expect(after.balance).toBe(start - 2 * R);
      expect(after.logged).toBe(2 * R);
    } finally {
      await other.close();
    }
  });

  it('cancels a response upstream starts by itself (server VAD) when the balance cannot hold it, and keeps the session open', async () => {
    const u = await f.newUser({ quota: 1_000 });
    const s = await session(u.key);
    s.ws.send(JSON.stringify({ type: 'test.vad' }));
    const [error] = await s.waitFor('error');
    expect(error.error.message).toMatch(/^user quota is not enough for this response: its worst case is 8\d{3} quota/);
    const [cut] = await s.waitFor('response.done');
    expect(cut.response.status).toBe('cancelled');
    expect(fake.received.filter((e: any) => e.type === 'response.cancel').map((e: any) => e.response_id)).toContain(cut.response.id);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
    await s.closed;
    await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
    // What it read before the cancel (20 input tokens) is paid from what the balance has, once the
    // session's charges are through (they may still be taking a slice when the socket has closed).
    await expect.poll(async () => (await settled(u)).logged).toBe(20);
    const after = await settled(u);
    expect(after.balance).toBe(1_000 - 20);
    expect(after.logged).toBe(20);
  });

  it('refuses a response whose worst case is more than the balance left before it runs, and serves a smaller one', async () => {
    const u = await f.newUser({ quota: 1_000 });
    const s = await session(u.key);
    const before = creates();
    // Without a cap the response may run to the model's output limit (8192 tokens).
    s.ws.send(create({}));
    const [error] = await s.waitFor('error');
    expect(error.error.code).toBe('insufficient_quota');
    expect(error.error.message).toContain('user quota is not enough for this response: its worst case is 8192 quota; set max_output_tokens');
    expect(creates()).toBe(before);
    // A session's own cap counts as well.
    s.ws.send(JSON.stringify({ type: 'session.update', session: { max_response_output_tokens: 10 } }));
    s.ws.send(create({}));
    await s.waitFor('response.done');
    s.ws.close();
    await s.closed;
    await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
    const after = await settled(u);
    expect(after.balance).toBe(1_000 - R);
    expect(after.logged).toBe(R);
  });

  it('charges a response that cost more than its hold in full from the balance, and never more than the balance has', async () => {
    // No input before the response and an output cap of 1: the hold is a few quota, while upstream reports 20 in and 10 out.
    const meta = async (userId: number) => JSON.parse(String((await f.server.ctx.db.selectFrom('logs').select('metadata').where('user_id', '=', userId).where('type', '=', 2).executeTakeFirstOrThrow()).metadata));
    for (const [start, billed] of [[10_000, R], [12, 12]]) {
      const u = await f.newUser({ quota: start });
      const s = await session(u.key);
      s.ws.send(create({ max_output_tokens: 1 }));
      await s.waitFor('response.done');
      s.ws.close();
      await s.closed;
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
      // The charge above the hold may still be taking from the balance when the socket has closed.
      await expect.poll(async () => (await settled(u)).logged).toBe(billed);
      const after = await settled(u);
      expect(after).toMatchObject({ balance: start - billed, logged: billed });
      expect((await meta(u.userId)).uncovered_cost).toBe(billed === R ? undefined : R - billed);
    }
  });

  it('refuses a response whose worst case is more than the token has left', async () => {
    const u = await f.newUser({ quota: 1_000_000, token: { unlimited_quota: false, remain_quota: 1_000 } });
    const s = await session(u.key);
    const before = creates();
    s.ws.send(create({}));
    const [error] = await s.waitFor('error');
    expect(error.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(error.error.message).toContain('token quota is not enough for this response: its worst case is 8192 quota');
    expect(creates()).toBe(before);
    s.ws.send(create());
    await s.waitFor('response.done');
    s.ws.close();
    await s.closed;
    await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
    await f.flush();
    const token = (await u.client.get('/api/token/')).body.data.data[0];
    expect(token.remain_quota).toBe(1_000 - R);
  });

  for (const gone of ['client', 'upstream'] as const) {
    it(`releases a response's hold when the ${gone} leaves mid-response, so the balance is exact afterwards`, async () => {
      const start = W + 5;
      const u = await f.newUser({ quota: start });
      const a = await session(u.key);
      const b = await session(u.key);
      a.ws.send(SAY);
      b.ws.send(SAY);
      // A slow response holds the one response's worth the balance has…
      a.ws.send(create({ max_output_tokens: 10, metadata: { test_delay_ms: 5_000 } }));
      await a.waitFor('response.created');
      // …so another session's response is refused meanwhile.
      b.ws.send(create());
      expect((await b.waitFor('error'))[0].error.code).toBe('insufficient_quota');
      if (gone === 'client') a.ws.terminate();
      else a.ws.send(JSON.stringify({ type: 'test.drop' }));
      await a.closed;
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(1);
      b.ws.send(create());
      await b.waitFor('response.done');
      b.ws.close();
      await b.closed;
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
      const after = await settled(u);
      expect(after.balance).toBe(start - R);
      expect(after.logged).toBe(R);
    });
  }

  type Session = Awaited<ReturnType<typeof session>>;
  const closeAll = async (u: { userId: number }, ...sessions: Session[]) => {
    for (const s of sessions) s.ws.close();
    await Promise.all(sessions.map((s) => s.closed));
    await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
  };
  /** Session `a` runs a slow response and asks for a second one in the same conversation, which upstream rejects (one active response per conversation). */
  async function rejectedBeside(a: Session, maxOutput = 10) {
    a.ws.send(create({ max_output_tokens: maxOutput, metadata: { test_delay_ms: 2_000 } }));
    await a.waitFor('response.created');
    a.ws.send(create({ max_output_tokens: maxOutput }));
    const [rejection] = await a.waitFor('error');
    expect(rejection.error).toMatchObject({ type: 'invalid_request_error', code: 'conversation_already_has_active_response' });
    // The create went upstream with an event_id the gateway gave it, which upstream's error names;
    // the client sent none, so the error it gets names none.
    const forwarded = fake.received.filter((e: any) => e.type === 'response.create').at(-1) as { event_id?: string };
    expect(forwarded.event_id).toMatch(/^gw_/);
    expect(rejection.error.event_id).toBeNull();
  }

  it('gives back at once the balance a response.create upstream rejects held, so the next response can have it', async () => {
    const start = 2 * W + 5;
    const u = await f.newUser({ quota: start });
    const [a, b] = await Promise.all([session(u.key), session(u.key)]);
    a.ws.send(SAY);
    b.ws.send(SAY);
    await rejectedBeside(a);
    // Both of a's responses held a worst case; the rejected one's is back, and another session's response needs it.
    b.ws.send(create());
    const [served] = await b.waitFor('response.done');
    expect(served?.response.status).toBe('completed');
    expect(b.events.filter((e) => e.type === 'error')).toEqual([]);
    await a.waitFor('response.done');
    await closeAll(u, a, b);
    const after = await settled(u);
    expect(after.balance).toBe(start - 2 * R);
    expect(after.logged).toBe(2 * R);
    expect(after.rows).toBe(2);
  });

  it('gives back at once the daily cap a response.create upstream rejects reserved, and the window ends at what was spent', async () => {
    // Nothing sent before the responses: each one's worst case is its 30-token output cap, R quota (what it costs).
    const u = await f.newUser({ quota: 1_000_000, token: { setting: { limits: { request_limits: { daily_quota: R + 1 } } } } });
    const [a, b] = await Promise.all([session(u.key), session(u.key)]);
    await rejectedBeside(a, R);
    b.ws.send(create({ max_output_tokens: R }));
    const [served] = await b.waitFor('response.done');
    expect(served?.response.status).toBe('completed');
    expect(b.events.filter((e) => e.type === 'error')).toEqual([]);
    await a.waitFor('response.done');
    a.ws.close();
    await a.closed;
    // Once a's response is settled (its session row written), the window holds the two responses' cost, no more.
    await expect.poll(async () => (await settled(u)).rows).toBe(1);
    b.ws.send(create());
    const [refused] = await b.waitFor('error');
    expect(refused.error.code).toBe('daily_quota_exceeded');
    expect(refused.error.message).toContain(`daily spending cap ${R + 1} (quota), ${2 * R} spent or held today`);
    await closeAll(u, b);
    const after = await settled(u);
    expect(after.balance).toBe(1_000_000 - 2 * R);
    expect(after.logged).toBe(2 * R);
  });

  it('gives back the hold of a response.create upstream never answers once answerMs has passed', async () => {
    const answerMs = realtimeTiming.answerMs;
    realtimeTiming.answerMs = 300;
    try {
      const start = W + 5; // one worst case at a time
      const u = await f.newUser({ quota: start });
      const s = await session(u.key);
      s.ws.send(SAY);
      s.ws.send(create({ max_output_tokens: 10, metadata: { test_ignore: 'yes' } }));
      // While the unanswered create holds its worst case, the balance has no room for another.
      s.ws.send(create());
      const [refused] = await s.waitFor('error');
      expect(refused.error.code).toBe('insufficient_quota');
      // Then the hold goes back, and a response fits again.
      const free = () => relayState(f.server.ctx).leases.available(u.userId, u.tokenId, false);
      expect(await free()).toBeLessThan(W);
      await expect.poll(free, { timeout: 3000, interval: 50 }).toBe(start);
      s.ws.send(create());
      const [served] = await s.waitFor('response.done');
      expect(served.response.status).toBe('completed');
      s.ws.close();
      await s.closed;
      const after = await settled(u);
      expect(after.balance).toBe(start - R);
      expect(after.logged).toBe(R);
      expect(after.rows).toBe(1);
    } finally {
      realtimeTiming.answerMs = answerMs;
    }
  });

  it('matches several responses in flight in one session to their holds when upstream rejects one among them', async () => {
    const start = 4 * W + 5;
    const u = await f.newUser({ quota: start });
    const [a, b] = await Promise.all([session(u.key), session(u.key)]);
    a.ws.send(SAY);
    b.ws.send(SAY);
    const slow = { max_output_tokens: 10, metadata: { test_delay_ms: 2_000 } };
    a.ws.send(create(slow));
    // Out of the default conversation: runs beside the first.
    a.ws.send(create({ ...slow, conversation: 'none' }));
    // In the default conversation again: rejected, naming the client's own event_id.
    a.ws.send(JSON.stringify({ type: 'response.create', event_id: 'evt_client_3', response: { max_output_tokens: 10 } }));
    a.ws.send(create({ ...slow, conversation: 'none' }));
    await a.waitFor('response.created', 3);
    const [rejection] = await a.waitFor('error');
    expect(rejection.error).toMatchObject({ code: 'conversation_already_has_active_response', event_id: 'evt_client_3' });
    // Three worst cases are held, the rejected one's is back: another session's response needs it.
    b.ws.send(create());
    const [served] = await b.waitFor('response.done');
    expect(served?.response.status).toBe('completed');
    expect(b.events.filter((e) => e.type === 'error')).toEqual([]);
    await a.waitFor('response.done', 3);
    await closeAll(u, a, b);
    const after = await settled(u);
    expect(after.balance).toBe(start - 4 * R);
    expect(after.logged).toBe(4 * R);
    expect(after.rows).toBe(2);
  });

  it('keeps a response\'s hold when upstream answers another client event with an error before the response starts', async () => {
    const start = W + 5;
    const u = await f.newUser({ quota: start });
    const [a, b] = await Promise.all([session(u.key), session(u.key)]);
    a.ws.send(SAY);
    b.ws.send(SAY);
    const before = creates();
    // Upstream is slow to start this response, so its hold waits for response.created…
    a.ws.send(create({ max_output_tokens: 10, metadata: { test_created_delay_ms: 1_500 } }));
    await expect.poll(() => creates()).toBe(before + 1);
    // …while upstream rejects two other events: one naming its event_id, one naming none.
    a.ws.send(JSON.stringify({ type: 'conversation.item.delete', event_id: 'evt_delete_1', item_id: 'item_gone' }));
    a.ws.send(JSON.stringify({ type: 'conversation.item.delete', item_id: 'item_gone' }));
    const errors = await a.waitFor('error', 2);
    expect(errors.map((e) => e.error.event_id)).toEqual(['evt_delete_1', null]);
    // The hold stays: another session's response is refused meanwhile.
    b.ws.send(create());
    const [refused] = await b.waitFor('error');
    expect(refused?.error.code).toBe('insufficient_quota');
    const [done] = await a.waitFor('response.done');
    expect(done?.response.status).toBe('completed');
    await closeAll(u, a, b);
    const after = await settled(u);
    expect(after.balance).toBe(start - R);
    expect(after.logged).toBe(R);
  });

  it('refuses a session over UserMaxInflight with 429 and gives its slot back once it ends', async () => {
    await f.setOption('UserMaxInflight', 1);
    try {
      const u = await f.newUser({ quota: 1_000_000 });
      const first = await session(u.key);
      const [, res] = await once(dial(u.key), 'unexpected-response');
      expect(res.statusCode).toBe(429);
      let body = '';
      for await (const chunk of res) body += chunk;
      expect(JSON.parse(body).error).toMatchObject({ code: 'too_many_inflight' });
      first.ws.close();
      await first.closed;
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
      const next = await session(u.key);
      next.ws.close();
      await next.closed;
      await expect.poll(() => relayState(f.server.ctx).inflight.of(u.userId)).toBe(0);
    } finally {
      await f.setOption('UserMaxInflight', 128);
    }
  });
});

describe('realtime sessions at shutdown', () => {
  it('closes open sessions when the gateway shuts down instead of waiting for them', async () => {
    const fake = new FakeRealtime();
    await fake.start();
    const f = await relayFixture('sqlite');
    try {
      await f.addChannel({ key: 'rt-down', base_url: fake.url, models: 'test-model' });
      const u = await f.newUser({ quota: 1_000_000 });
      const ws = dialRealtime(f.url, u.key);
      const s = collect(ws);
      await once(ws, 'open');
      ws.send(create());
      await s.waitFor('response.done');
      // The WebSocket server's clients are closed before the HTTP server waits for its connections (it waited forever).
      await f.close();
      expect(await s.closed).toBe(1006);
    } finally {
      await fake.close();
    }
  });
});
