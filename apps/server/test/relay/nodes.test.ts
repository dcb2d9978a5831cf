import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { redisAvailable, startTestServer, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from './fixture.js';

/** Pitfall "stale state across nodes": a change on one node must reach the other at once. */
describe.skipIf(!redisAvailable())('two gateway nodes sharing Redis', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  beforeAll(async () => {
    a = await relayFixture('sqlite', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `nodes:${Date.now()}:` });
    b = await startTestServer('sqlite', { reuse: a.server });
    bUrl = await b.listen();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const ask = (url: string, key: string) =>

    new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'node-model', messages: [{ role: 'user', content: 'hi' }] });

  const outcome = (url: string, key: string) => ask(url, key).then(() => 'ok', (e) => String(e.status));

  it('routes a channel created on node A from node B, and stops using it once A disables it', async () => {
    const channel = await a.addChannel({ key: 'node-key', models: 'node-model' });
    const { key, tokenId, client } = await a.newUser({ quota: 10_000_000 });
    await expect.poll(async () => (await outcome(bUrl, key)), { timeout: 3000 }).toBe('ok');

    await a.root.put('/api/channel/', { id: channel, status: 2 });
    await expect.poll(async () => (await outcome(bUrl, key)), { timeout: 3000 }).toBe('503');

    await a.root.put('/api/channel/', { id: channel, status: 1 });
    await expect.poll(async () => (await outcome(bUrl, key)), { timeout: 3000 }).toBe('ok');
    await client.put('/api/token/?status_only=1', { id: tokenId, status: 2 });
    await expect.poll(async () => (await outcome(bUrl, key)), { timeout: 3000 }).toBe('401');
  });
});
