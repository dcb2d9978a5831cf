import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, REDIS_URL, startTestServer, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { TcpProxy } from '../tcp-proxy.js';

const PG_DSN = process.env.TEST_POSTGRES_DSN;
if (!PG_DSN) console.warn('skipping the degraded-store nodes: TEST_POSTGRES_DSN is not set');
if (PG_DSN && !REDIS_URL) console.warn('skipping the Redis recovery case: TEST_REDIS_CONN_STRING is not set');

const METRICS = { METRICS_USER: 'prom', METRICS_PASSWORD: 'scrape-secret' };
/** The caller cache's bound while degraded (2 s) plus room for a slow machine. */
const WITHIN_MS = 6000;

/**
 * Node A (live Redis when there is one) and node B, whose Redis is at a port that refuses until
 * the proxy opens: B hears none of A's change notices, so it must re-read tokens and users itself.
 */
describe.skipIf(!PG_DSN)('a node that cannot reach its shared store (postgres)', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  let redis: TcpProxy | undefined;

  beforeAll(async () => {
    const redisUrl = REDIS_URL ? new URL(REDIS_URL) : undefined;
    redis = await TcpProxy.reserve({ host: redisUrl?.hostname ?? '127.0.0.1', port: Number(redisUrl?.port || 6379) });
    a = await relayFixture('postgres', REDIS_URL ? { REDIS_CONN_STRING: REDIS_URL, REDIS_KEY_PREFIX: `degraded:${Date.now()}:` } : {});
    await a.addChannel({ key: 'degraded-key', models: 'test-model' });
    b = await startTestServer('postgres', { reuse: a.server, env: { REDIS_CONN_STRING: `redis://127.0.0.1:${redis.port}`, ...METRICS } });
    bUrl = await b.listen();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.close();
  });

  const outcome = (url: string, key: string) =>
    a
      .openai(key)
      .withOptions({ baseURL: `${url}/v1` })
      .chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => 'ok',
        (e) => String(e.status),
      );
  const status = async (server: TestServer) => (await new ApiClient(server.app).get('/api/status')).body.data;
  const gauge = async () => {
    const res = await b.app.inject({ url: '/api/metrics', headers: { authorization: `Basic ${Buffer.from('prom:scrape-secret').toString('base64')}` } });
    return /^shared_store_degraded (\d)$/m.exec(res.body)?.[1];
  };

  it('says so in /api/status and the metrics, and refuses a token disabled and a user banned on the other node within seconds', async () => {
    expect((await status(b)).degraded).toBe(true);
    expect((await status(a.server)).degraded).toBe(false);
    expect(await gauge()).toBe('1');

    const tok = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(bUrl, tok.key)).toBe('ok'); // now in B's cache
    await tok.client.put('/api/token/?status_only=1', { id: tok.tokenId, status: 2 });
    expect(await outcome(a.url, tok.key)).toBe('401');
    await expect.poll(() => outcome(bUrl, tok.key), { timeout: WITHIN_MS, interval: 200 }).toBe('401');

    const banned = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(bUrl, banned.key)).toBe('ok');
    const { username } = (await a.root.get(`/api/user/${banned.userId}`)).body.data;
    expect((await a.root.post('/api/user/manage', { username, action: 'disable' })).body.success).toBe(true);
    await expect.poll(() => outcome(bUrl, banned.key), { timeout: WITHIN_MS, interval: 200 }).toBe('401');
  });

  it.skipIf(!REDIS_URL)('returns to normal when its Redis comes back: sends the notices it kept, hears notices again and trusts its cache', async () => {
    // A token disabled through B while B is cut off: A, which has it cached, hears of it once B is back.
    const early = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(a.url, early.key)).toBe('ok');
    const onB = new ApiClient(b.app);
    await onB.login((await a.root.get(`/api/user/${early.userId}`)).body.data.username, 'password123');
    expect((await onB.put('/api/token/?status_only=1', { id: early.tokenId, status: 2 })).body.success).toBe(true);
    expect(await outcome(bUrl, early.key)).toBe('401');
    expect(await outcome(a.url, early.key)).toBe('ok');

    await redis!.open();
    await expect.poll(async () => (await status(b)).degraded, { timeout: 10_000, interval: 100 }).toBe(false);
    expect(await gauge()).toBe('0');
    await expect.poll(() => outcome(a.url, early.key), { timeout: 3000, interval: 100 }).toBe('401');

    const tok = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(bUrl, tok.key)).toBe('ok');
    // A notice reaches B through Redis at once.
    await tok.client.put('/api/token/?status_only=1', { id: tok.tokenId, status: 2 });
    await expect.poll(() => outcome(bUrl, tok.key), { timeout: 3000, interval: 100 }).toBe('401');
    await tok.client.put('/api/token/?status_only=1', { id: tok.tokenId, status: 1 });
    await expect.poll(() => outcome(bUrl, tok.key), { timeout: 3000, interval: 100 }).toBe('ok');
    // A change no node announced is not seen before the healthy TTL: B no longer reads per request.
    await a.server.ctx.db.updateTable('tokens').set({ status: 2 }).where('id', '=', tok.tokenId).execute();
    const since = Date.now();
    // Paced, so the group's 600 requests a minute is not what answers on a fast machine.
    while (Date.now() - since < 2500) {
      expect(await outcome(bUrl, tok.key)).toBe('ok');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it.skipIf(!REDIS_URL)('degrades again when its Redis goes away while it serves', async () => {
    const tok = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(bUrl, tok.key)).toBe('ok');
    await redis!.close();
    await expect.poll(async () => (await status(b)).degraded, { timeout: 5000, interval: 100 }).toBe(true);
    expect(await gauge()).toBe('1');
    await tok.client.put('/api/token/?status_only=1', { id: tok.tokenId, status: 2 });
    await expect.poll(() => outcome(bUrl, tok.key), { timeout: WITHIN_MS, interval: 200 }).toBe('401');
  });
});
