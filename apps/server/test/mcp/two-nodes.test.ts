import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, startTestServer, testDialects, type TestServer } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { relayState } from '../../src/relay/state.js';
import { startFakeMcp, type FakeMcp } from './upstreams.js';

/** Issue 40 point 4: a priced tool holds its price on every node, like a per-call model. */
describe.skipIf(!redisAvailable() || !testDialects().includes('postgres'))('priced MCP calls on two nodes (postgres + redis)', () => {
  let a: RelayFixture;
  let b: TestServer;
  let bUrl: string;
  let upstream: FakeMcp;

  beforeAll(async () => {
    upstream = await startFakeMcp('streamable');
    a = await relayFixture('postgres', { REDIS_CONN_STRING: process.env.TEST_REDIS_CONN_STRING!, REDIS_KEY_PREFIX: `mcp:${Date.now()}:` });
    b = await startTestServer('postgres', { reuse: a.server, env: { BATCH_FLUSH_MS: '60000' } });
    bUrl = await b.listen();
    const made = await a.root.post('/api/mcp_server/', { name: 'paid', url: `${upstream.url}/mcp`, price: 1000 });
    expect(made.body.success).toBe(true);
    expect((await a.root.post(`/api/mcp_server/${made.body.data.id}/refresh`, {})).body.data.tool_count).toBe(4);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await upstream?.close();
  });

  it('serves 20 concurrent priced calls on a balance worth 3 at most 3 times across both nodes, billed once each', async () => {
    const { userId, key } = await a.newUser({ quota: 3000 });
    const clients = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const c = new Client({ name: `c${i}`, version: '1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(`${i % 2 ? bUrl : a.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
        return c;
      }),
    );
    // Slow answers keep every hold in flight at once.
    const outcomes = await Promise.all(
      clients.map((c) =>
        c.callTool({ name: 'paid__slow', arguments: { delay_ms: 300 } }).then(
          (r) => (r.isError ? 'tool_error' : 'served'),
          (e: Error) => e.message,
        ),
      ),
    );
    await Promise.all(clients.map((c) => c.close()));
    const served = outcomes.filter((o) => o === 'served').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(3);
    expect(outcomes.filter((o) => o !== 'served').every((o) => /额度不足|quota/i.test(o))).toBe(true);
    expect(upstream.calls).toBe(served);
    for (const s of [a.server, b]) await relayState(s.ctx).recorder.flush();
    for (const s of [a.server, b]) await relayState(s.ctx).leases.settleUp();
    const user = await a.server.ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect({ quota: Number(user.quota), used: Number(user.used_quota) }).toEqual({ quota: 3000 - served * 1000, used: served * 1000 });
    const rows = await a.server.ctx.db.selectFrom('logs').select(['quota']).where('user_id', '=', userId).where('model_name', '=', 'mcp:paid/slow').where('type', '=', 2).execute();
    expect(rows.map((r) => Number(r.quota))).toEqual(Array(served).fill(1000));
  });
});
