import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ApiClient, testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';

const REFUSED = /private or local network/;

/** A loopback HTTP server that answers a secret and counts what reaches it. */
async function internalService(): Promise<{ url: string; port: number; hits: () => number; connections: () => number; close: () => Promise<void> }> {
  let hits = 0;
  let connections = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"success":true,"data":"internal-secret","message":"internal-secret"}');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits: () => hits,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDialects())('admin-typed addresses with FetchAllowPrivateNetworks off on %s', (dialect) => {
  let f: RelayFixture;
  let internal: Awaited<ReturnType<typeof internalService>>;

  beforeAll(async () => {
    internal = await internalService();
    f = await relayFixture(dialect);
    await f.setOption('FetchAllowPrivateNetworks', false);
  });
  afterAll(async () => {
    await f?.close();
    await internal?.close();
  });

  const testOf = async (base_url: string, extra: Record<string, unknown> = {}) => {
    const id = await f.addChannel({ base_url, models: 'test-model', test_model: 'test-model', ...extra });
    return (await f.root.get(`/api/channel/test/${id}`)).body;
  };

  it.each([
    ['a loopback IP', (port: number) => `http://127.0.0.1:${port}`],
    ['a name resolving to loopback', (port: number) => `http://localhost:${port}`],
    ['an IPv4-mapped IPv6 loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}`],
    ['the IPv6 loopback', (port: number) => `http://[::1]:${port}`],
    ['the unspecified address', (port: number) => `http://0.0.0.0:${port}`],
  ])('refuses a channel test to %s without reflecting the answer', async (_name, base) => {
    const before = internal.hits();
    const body = await testOf(base(internal.port));
    expect(body.success).toBe(false);
    expect(body.message).toMatch(REFUSED);
    expect(JSON.stringify(body)).not.toContain('internal-secret');
    expect(internal.hits()).toBe(before);
  });

  it('refuses the model list, the balance query and a relay call to a private base URL', async () => {
    const models = await f.root.post('/api/channel/provider_models_list', { type: 1, key: 'k', base_url: internal.url });
    expect(models.status).toBe(502); // an unreachable upstream, as for any failed connection
    expect(models.body.success).toBe(false);
    expect(models.body.message).toMatch(REFUSED);

    const id = await f.addChannel({ base_url: internal.url, key: 'balance-key' });
    const balance = await f.root.get(`/api/channel/update_balance/${id}`);
    expect(balance.body).toMatchObject({ success: false, balance: 0 });
    expect(balance.body.message).toMatch(REFUSED);

    const { key } = await f.newUser({ quota: 10_000_000 });
    const res = await fetch(`${f.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(await res.text()).not.toContain('internal-secret');
    expect(internal.hits()).toBe(0);
  });

  it('refuses a realtime session to a private base URL: no connection, no answer reflected', async () => {
    await f.addChannel({ base_url: internal.url, models: 'rt-private' });
    const { key } = await f.newUser({ quota: 10_000_000 });
    const before = internal.connections();
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-private`, { headers: { authorization: `Bearer ${key}` } });
    const outcome = await new Promise<string>((resolve) => {
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      });
      ws.once('open', () => resolve('open'));
      ws.once('close', (code, reason) => resolve(`closed ${code} ${reason.toString()}`));
      ws.once('error', (error) => resolve(`error ${error.message}`));
    });
    ws.terminate();
    expect(outcome).not.toBe('open');
    expect(outcome).not.toContain('internal-secret');
    expect(internal.connections()).toBe(before);
  });

  it('refuses a channel proxy on a private address', async () => {
    const body = await testOf('http://203.0.113.10', { proxy: internal.url });
    expect(body.success).toBe(false);
    expect(body.message).toMatch(REFUSED);
    expect(internal.hits()).toBe(0);
  });

  it('refuses the WeChat server address with a generic reason', async () => {
    await f.setOption('WeChatServerAddress', internal.url);
    await f.setOption('WeChatAuthEnabled', true);
    const { client } = await f.newUser();
    const res = await client.get('/api/oauth/wechat/bind?code=123456');
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(REFUSED);
    expect(internal.hits()).toBe(0);
  });

  it('reaches the same addresses once the option is on', async () => {
    await f.setOption('FetchAllowPrivateNetworks', true);
    try {
      const body = await testOf(f.fake.url);
      expect(body.success).toBe(true);
      const { client } = await f.newUser();
      await client.get('/api/oauth/wechat/bind?code=123456');
      expect(internal.hits()).toBe(1);
    } finally {
      await f.setOption('FetchAllowPrivateNetworks', false);
    }
  });

  it('is an admin setting: a common user cannot read or change it', async () => {
    const user = new ApiClient(f.server.app);
    const { client } = await f.newUser();
    expect((await client.put('/api/option/', { key: 'FetchAllowPrivateNetworks', value: 'true' })).status).toBe(403);
    expect((await user.get('/api/option/')).status).toBe(401);
  });
});
