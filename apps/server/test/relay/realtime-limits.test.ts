import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { REDIS_URL, redisAvailable, startTestServer, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { dialRealtime, openRealtime } from './ws-events.js';
import { relayState } from '../../src/relay/state.js';

// Mid-minute (UTC), so the RPM window's edge is exactly 30 s away.
const T = Date.UTC(2026, 5, 10, 12, 0, 30);
const limited = (rules: Record<string, number>) => ({ setting: { limits: { request_limits: rules } } });
/** What one fake realtime response (20 in, 10 out) costs on test-model. */
const R = 30;

/** Per-token limits hold on `/v1/realtime` too (issue 21.2): a session is a request, each response a request for TPM and caps. */
describe.each(testDialects())('request limits on realtime sessions on %s', (dialect) => {
  let f: RelayFixture;
  let fake: FakeRealtime;
  let clock = T;

  beforeAll(async () => {
    fake = new FakeRealtime();
    await fake.start();
    // The counters live in memory on SQLite and in Redis (when available) on the other dialects.
    const redis: Record<string, string> = dialect !== 'sqlite' && redisAvailable() ? { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: `test:rtl${Math.random().toString(36).slice(2, 8)}:` } : {};
    f = await relayFixture(dialect, redis);
    relayState(f.server.ctx).limits.now = () => clock;
    // A response's worst case is then its input plus its output cap, with no floor.
    await f.setOption('PreConsumedQuota', 0);
    await f.addChannel({ key: 'rt-lim', base_url: fake.url, models: 'test-model' });
  });
  afterAll(async () => {
    await f?.close();
    await fake?.close();
  });

  const dial = (key: string) => dialRealtime(f.url, key);
  const session = (key: string) => openRealtime(f.url, key);
  /** A session refused before the upgrade: its status, Retry-After and error body. */
  async function refused(key: string) {
    const [, res] = await once(dial(key), 'unexpected-response');
    let body = '';
    for await (const chunk of res) body += chunk;
    return { status: res.statusCode as number, retryAfter: res.headers['retry-after'], error: JSON.parse(body).error };
  }
  const upstreamCreates = () => fake.received.filter((e: any) => e.type === 'response.create').length;

  it('spends a token\'s daily cap over responses, then refuses the next response with the cap\'s error event and keeps the session open', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 1_000_000, token: limited({ daily_quota: 2 * R }) });
    const s = await session(key);
    for (let n = 1; n <= 2; n++) {
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      await s.waitFor('response.done', n);
    }
    const sent = upstreamCreates();
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    const [error] = await s.waitFor('error');
    expect(error.error).toMatchObject({ type: 'one_hub_error', code: 'daily_quota_exceeded', param: null });
    expect(error.error.message).toContain(`token limit reached: daily spending cap ${2 * R} (quota), ${2 * R} spent or held today (UTC)`);
    // Not forwarded, and the session goes on.
    s.ws.send(JSON.stringify({ type: 'session.update', session: {} }));
    await expect.poll(() => fake.received.at(-1)).toMatchObject({ type: 'session.update' });
    expect(upstreamCreates()).toBe(sent);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
    await s.closed;
    // A new session on the spent cap is refused before the upgrade, with Retry-After until the next UTC day.
    const again = await refused(key);
    expect(again.status).toBe(429);
    expect(Number(again.retryAfter)).toBe(12 * 3600 - 30);
    expect(again.error.code).toBe('daily_quota_exceeded');
  });

  it('cancels a response upstream starts by itself (server VAD) once the daily cap is spent', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 1_000_000, token: limited({ daily_quota: R }) });
    const s = await session(key);
    s.ws.send(JSON.stringify({ type: 'test.vad' }));
    const [paid] = await s.waitFor('response.done');
    expect(paid.response.status).toBe('completed');
    s.ws.send(JSON.stringify({ type: 'test.vad' }));
    const [error] = await s.waitFor('error');
    expect(error.error.code).toBe('daily_quota_exceeded');
    const [, cut] = await s.waitFor('response.done', 2);
    expect(cut.response.status).toBe('cancelled');
    expect(fake.received.filter((e: any) => e.type === 'response.cancel').map((e: any) => e.response_id)).toContain(cut.response.id);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
    await s.closed;
  });

  for (const [rule, code] of [[{ daily_quota: R }, 'daily_quota_exceeded'], [{ tpm: 100 }, 'tpm_limit_exceeded']] as const) {
    it(`reserves each response's worst case, so concurrent sessions of one token do not pass its ${code.split('_')[0]} limit together`, async () => {
      clock = T;
      const { key } = await f.newUser({ quota: 1_000_000, token: limited(rule) });
      const sessions = await Promise.all([1, 2, 3].map(() => session(key)));
      const sent = upstreamCreates();
      // Slow answers: every response is still running when the last one is checked.
      for (const s of sessions) s.ws.send(JSON.stringify({ type: 'response.create', response: { metadata: { test_delay_ms: 1_000 } } }));
      const answered = () => sessions.flatMap((s) => s.events.filter((e) => e.type === 'response.done' || e.type === 'error'));
      await expect.poll(() => answered().length, { timeout: 10_000 }).toBe(3);
      expect(answered().filter((e) => e.type === 'response.done')).toHaveLength(1);
      expect(answered().filter((e) => e.type === 'error').map((e) => e.error.code)).toEqual([code, code]);
      expect(upstreamCreates() - sent).toBe(1);
      for (const s of sessions) s.ws.close();
      await Promise.all(sessions.map((s) => s.closed));
    });
  }

  it('refuses a response once the session\'s settled tokens reach the TPM, and admits one in the next minute', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 1_000_000, token: limited({ tpm: 30 }) });
    const s = await session(key);
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    await s.waitFor('response.done');
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    const [error] = await s.waitFor('error');
    expect(error.error).toMatchObject({ code: 'tpm_limit_exceeded', message: expect.stringContaining('30 tokens per minute (TPM), 30 used or held') });
    clock += 30_000;
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    await s.waitFor('response.done', 2);
    s.ws.close();
    await s.closed;
  });

  it('holds max in flight with an open session: a second one is refused with 429 and admitted once the first closes', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 1_000_000, token: limited({ max_inflight: 1 }) });
    const first = await session(key);
    const second = await refused(key);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('1');
    expect(second.error).toMatchObject({ code: 'inflight_limit_exceeded', type: 'one_hub_error' });
    expect(second.error.message).toContain('token limit reached: 1 concurrent requests (max in flight)');
    first.ws.close();
    await first.closed;
    const later = await session(key);
    expect((await later.waitFor('session.created')).length).toBe(1);
    // An abnormal end gives the slot back too.
    later.ws.terminate();
    await later.closed;
    await expect.poll(async () => {
      const ws = dial(key);
      const ok = await Promise.race([once(ws, 'open').then(() => true), once(ws, 'unexpected-response').then(() => false)]);
      ws.close();
      return ok;
    }).toBe(true);
  });

  it('counts a session open against the token RPM: the next open is refused with Retry-After and admitted in the next minute', async () => {
    clock = T;
    const { key } = await f.newUser({ quota: 1_000_000, token: limited({ rpm: 1 }) });
    const s = await session(key);
    // Responses are not requests for the RPM.
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    s.ws.send(JSON.stringify({ type: 'response.create' }));
    await s.waitFor('response.done', 2);
    const second = await refused(key);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('30');
    expect(second.error.code).toBe('rpm_limit_exceeded');
    expect(second.error.message).toContain('token limit reached: 1 requests per minute (RPM)');
    s.ws.close();
    await s.closed;
    clock += 30_000;
    const next = await session(key);
    next.ws.close();
    await next.closed;
  });

  // The caps' counters live in Redis, shared by every node on the database (SQLite runs keep them in memory, one node).
  if (dialect !== 'sqlite') {
    it.skipIf(!redisAvailable())('holds a daily cap across two nodes: concurrent sessions on both are served only the responses it is worth', async () => {
      clock = T;
      const other = await startTestServer(dialect, { reuse: f.server });
      try {
        relayState(other.ctx).limits.now = () => clock;
        const otherUrl = await other.listen();
        const N = 3;
        const { key, userId, client } = await f.newUser({ quota: 1_000_000, token: limited({ daily_quota: N * R }) });
        const sessions = await Promise.all([f.url, otherUrl, f.url, otherUrl, f.url, otherUrl, f.url, otherUrl].map((url) => openRealtime(url, key)));
        // Nothing sent before: each response's worst case is its 30-token output cap, R (what it costs). Slow answers, so all overlap.
        const ask = (s: { ws: WebSocket }) => s.ws.send(JSON.stringify({ type: 'response.create', response: { max_output_tokens: R, metadata: { test_delay_ms: 1_000 } } }));
        for (const s of sessions) ask(s);
        const answered = () => sessions.flatMap((s) => s.events.filter((e) => e.type === 'response.done' || e.type === 'error'));
        await expect.poll(() => answered().length, { timeout: 10_000 }).toBe(sessions.length);
        expect(answered().filter((e) => e.type === 'response.done')).toHaveLength(N);
        expect(answered().filter((e) => e.type === 'error').map((e) => e.error.code)).toEqual(Array(sessions.length - N).fill('daily_quota_exceeded'));
        // The counters hold exactly what was spent, on both nodes: the next response on either is refused naming it.
        for (const s of [sessions[0], sessions[1]]) {
          const seen = s.events.filter((e) => e.type === 'error').length;
          ask(s);
          const errors = await s.waitFor('error', seen + 1);
          expect(errors.at(-1)?.error.message).toContain(`daily spending cap ${N * R} (quota), ${N * R} spent or held today`);
        }
        for (const s of sessions) s.ws.close();
        await Promise.all(sessions.map((s) => s.closed));
        await expect.poll(() => relayState(f.server.ctx).inflight.of(userId) + relayState(other.ctx).inflight.of(userId)).toBe(0);
        // Every session's row written (the served ones' charges with them), then the balance columns are exact.
        const rows = () => f.server.ctx.db.selectFrom('logs').select('quota').where('user_id', '=', userId).where('type', '=', 2).execute();
        await expect.poll(async () => {
          for (const node of [f.server, other]) await relayState(node.ctx).recorder.flush();
          return (await rows()).length;
        }).toBe(sessions.length);
        for (const node of [f.server, other]) await relayState(node.ctx).leases.settleUp();
        expect((await rows()).reduce((sum, r) => sum + Number(r.quota), 0)).toBe(N * R);
        expect((await client.get('/api/user/self')).body.data.quota).toBe(1_000_000 - N * R);
      } finally {
        await other.close();
      }
    });
  }

  it('applies a user\'s limits set by an admin and a model\'s limits within the group', async () => {
    clock = T;
    const group = await f.server.ctx.db.selectFrom('user_groups').select('id').where('symbol', '=', 'default').executeTakeFirstOrThrow();
    expect((await f.root.put(`/api/limits/group/${group.id}`, { 'test-model': { daily_quota: R } })).body.success).toBe(true);
    try {
      const { key, userId } = await f.newUser({ quota: 1_000_000 });
      expect((await f.root.put(`/api/limits/user/${userId}`, { max_inflight: 1 })).body.success).toBe(true);
      const s = await session(key);
      const second = await refused(key);
      expect(second.status).toBe(429);
      expect(second.error.message).toContain('user limit reached: 1 concurrent requests');
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      await s.waitFor('response.done');
      s.ws.send(JSON.stringify({ type: 'response.create' }));
      const [error] = await s.waitFor('error');
      expect(error.error.message).toContain(`model test-model in group default limit reached: daily spending cap ${R}`);
      s.ws.close();
      await s.closed;
    } finally {
      await f.root.put(`/api/limits/group/${group.id}`, {});
    }
  });
});
