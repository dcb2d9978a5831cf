import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ApiClient, REDIS_URL, redisAvailable, startTestServer, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';

/**
 * One command Redis refuses (here a GET on a key of another type) while the connection is fine
 * must not switch the node to memory for good: its change notices must still reach other nodes.
 */
describe.skipIf(!redisAvailable())('a node whose Redis refuses one command', () => {
  const prefix = `refused:${Date.now()}:`;
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  let raw: Redis;
  beforeAll(async () => {
    raw = new Redis(REDIS_URL!);
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: REDIS_URL!, REDIS_KEY_PREFIX: prefix });
    await a.addChannel({ key: 'refused-key', models: 'test-model' });
    b = await startTestServer('sqlite', { reuse: a.server });
    bUrl = await b.listen();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    const keys = await raw.keys(`${prefix}*`);
    if (keys.length) await raw.del(...keys);
    raw.disconnect();
  });

  const outcome = (key: string) =>
    a
      .openai(key)
      .withOptions({ baseURL: `${bUrl}/v1` })
      .chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => 'ok',
        (e) => String(e.status),
      );

  it('stays on Redis: a token disabled on it afterwards is refused on the other node at once', async () => {
    const tok = await a.newUser({ quota: 10_000_000 });
    expect(await outcome(tok.key)).toBe('ok'); // now in B's cache
    // The dashboard's RPM read of root's current minute (phased by 1 s, decision 0115) meets a list.
    const minute = Math.floor(Date.now() / 60_000);
    for (const m of [minute - 1, minute, minute + 1]) await raw.lpush(`${prefix}relay-rpm:1:${m}`, 'not a counter');
    expect((await a.root.get('/api/user/dashboard/rate')).body.success).toBe(true);

    await tok.client.put('/api/token/?status_only=1', { id: tok.tokenId, status: 2 });
    await expect.poll(() => outcome(tok.key), { timeout: 3000, interval: 100 }).toBe('401');
    expect((await new ApiClient(a.server.app).get('/api/status')).body.data.degraded).toBe(false);
  });
});
