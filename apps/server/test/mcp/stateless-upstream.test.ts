import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { relayState } from '../../src/relay/state.js';
import { STATELESS_TOOLS, startFakeMcp, type FakeMcp } from './upstreams.js';

/** Upstreams that speak only the stateless 2026-07-28 revision (issue 40), beside the stateful ones. */
describe.each(testDialects())('MCP gateway → 2026-07-28 upstream (%s)', (dialect) => {
  let f: RelayFixture;
  let stateless: FakeMcp;
  let streamable: FakeMcp;
  let sse: FakeMcp;
  let old: FakeMcp;
  let user: Awaited<ReturnType<RelayFixture['newUser']>>;

  async function addServer(body: Record<string, unknown>) {
    const res = await f.root.post('/api/mcp_server/', { groups: '', ...body });
    if (!res.body.success) throw new Error(JSON.stringify(res.body));
    const refreshed = await f.root.post(`/api/mcp_server/${res.body.data.id}/refresh`, {});
    expect(refreshed.body.success).toBe(true);
    return refreshed.body.data as { protocol_version: string; last_error: string; tool_count: number };
  }
  async function client(): Promise<Client> {
    const c = new Client({ name: 'test-client', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${f.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${user.key}` } } }));
    return c;
  }
  const catalogue = async (name: string) => JSON.parse((await f.server.ctx.db.selectFrom('mcp_servers').select('catalogue').where('name', '=', name).executeTakeFirstOrThrow()).catalogue!);

  beforeAll(async () => {
    f = await relayFixture(dialect, { MCP_MAX_RESULT_BYTES: '65536', BATCH_FLUSH_MS: '60000' });
    stateless = await startFakeMcp('stateless');
    streamable = await startFakeMcp('streamable');
    sse = await startFakeMcp('sse');
    old = await startFakeMcp('old');
    user = await f.newUser({ quota: 10_000, token: { unlimited_quota: true } });
  });
  afterAll(async () => {
    await f?.close();
    for (const u of [stateless, streamable, sse, old]) await u?.close();
  });

  it('the fake refuses initialize and requests without the 2026-07-28 header', async () => {
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(`${stateless.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta }, {})).status).toBe(400);
    const init = await (await post({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { ...meta, protocolVersion: '2025-11-25' } }, { 'mcp-protocol-version': '2026-07-28' })).json();
    expect(init.error.code).toBe(-32601);
  });

  it('refresh records protocol_version 2026-07-28 and reads every tools/list page and the prompts', async () => {
    stateless.seen.length = 0;
    const row = await addServer({ name: 'nova', url: `${stateless.url}/mcp`, headers: { 'x-api-key': 'nova-secret-1' }, auth: { type: 'bearer', token: 'nova-bearer-2' } });
    expect(row.last_error).toBe('');
    expect(row.protocol_version).toBe('2026-07-28');
    expect(row.tool_count).toBe(STATELESS_TOOLS.length);
    const cat = await catalogue('nova');
    expect(cat.tools.map((t: { name: string }) => t.name)).toEqual(STATELESS_TOOLS.map((t) => t.name));
    expect(cat.prompts).toEqual([{ name: 'greet', description: 'Says hello' }]);
    // Every request carried the revision header, the stored header and the bearer; none a session.
    expect(stateless.seen.length).toBeGreaterThanOrEqual(4);
    for (const h of stateless.seen) {
      expect(h['mcp-protocol-version']).toBe('2026-07-28');
      expect(h['x-api-key']).toBe('nova-secret-1');
      expect(h.authorization).toBe('Bearer nova-bearer-2');
      expect(h['mcp-session-id']).toBeUndefined();
    }
  });

  it('the streamable, SSE and older upstreams still negotiate as before', async () => {
    expect((await addServer({ name: 'alpha', url: `${streamable.url}/mcp` })).protocol_version).toBe('2025-11-25');
    const legacy = await addServer({ name: 'legacy', transport: 'sse', url: `${sse.url}/sse` });
    expect(legacy.last_error).toBe('');
    expect(legacy.tool_count).toBe(4);
    expect((await addServer({ name: 'oldie', url: `${old.url}/mcp` })).protocol_version).toBe('2024-11-05');
    const discovers = () => streamable.seen.filter((h) => h['mcp-method'] === 'server/discover').length;
    const discoveredOnRefresh = discovers();
    expect(discoveredOnRefresh).toBeGreaterThan(0);
    const c = await client();
    expect(await c.callTool({ name: 'alpha__echo', arguments: { text: 'a' } })).toMatchObject({ content: [{ text: 'echo:a' }] });
    // The refresh negotiated a stateful revision: a call goes straight to the SDK path, no discovery first.
    expect(discovers()).toBe(discoveredOnRefresh);
    expect(await c.callTool({ name: 'oldie__echo', arguments: { text: 'o' } })).toMatchObject({ content: [{ text: 'echo:o' }] });
    await c.close();
  });

  it('a tools/call through /mcp reaches the 2026-07-28 upstream and returns its result, logged with the revision', async () => {
    const before = stateless.calls;
    const c = await client();
    const result = await c.callTool({ name: 'nova__echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'stateless-echo:hi' }] });
    expect(result).not.toHaveProperty('resultType');
    await c.close();
    expect(stateless.calls).toBe(before + 1);
    // A stateless caller gets the gateway's own resultType.
    const raw = await fetch(`${f.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${user.key}`, 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nova__echo', arguments: { text: 's' } } }),
    });
    expect((await raw.json()).result).toMatchObject({ resultType: 'complete', content: [{ text: 'stateless-echo:s' }] });
    await f.flush();
    const rows = await f.server.ctx.db.selectFrom('logs').select(['metadata']).where('user_id', '=', user.userId).where('model_name', '=', 'mcp:nova/echo').execute();
    expect(rows.length).toBe(2);
    expect(JSON.parse(rows[0].metadata!)).toMatchObject({ mcp_status: 'ok' });
  });

  it('a 2026-07-28 upstream that outlasts the server timeout ends with the timeout error', async () => {
    await addServer({ name: 'slowpoke', url: `${stateless.url}/mcp`, timeout_ms: 1000 });
    const c = await client();
    const started = Date.now();
    const hang = await c.callTool({ name: 'slowpoke__slow', arguments: { delay_ms: 5000 } }).catch((e: Error) => e.message);
    expect(hang).toMatch(/upstream timed out \(request id: \w+\)/);
    expect(Date.now() - started).toBeLessThan(4000);
    await c.close();
  });

  it('an upstream error and an oversized result answer the generic errors, the admin log holds the detail', async () => {
    const c = await client();
    const fail = await c.callTool({ name: 'nova__crash', arguments: {} }).catch((e: Error) => e.message);
    expect(fail).toMatch(/upstream error \(request id: \w+\)/);
    expect(fail).not.toContain('10.0.0.7');
    const big = await c.callTool({ name: 'nova__big', arguments: { bytes: 200_000 } }).catch((e: Error) => e.message);
    expect(big).toMatch(/upstream result too large \(request id: \w+\)/);
    // Small enough: served.
    expect(await c.callTool({ name: 'nova__big', arguments: { bytes: 100 } })).toMatchObject({ content: [{ text: 'x'.repeat(100) }] });
    await c.close();
    await relayState(f.server.ctx).recorder.flush();
    await f.flush();
    const rows = await f.server.ctx.db.selectFrom('logs').select(['metadata', 'model_name', 'content']).where('user_id', '=', user.userId).execute();
    const statuses = rows.map((r) => [r.model_name, JSON.parse(r.metadata ?? '{}').mcp_status]);
    expect(statuses).toEqual(expect.arrayContaining([['mcp:nova/crash', 'upstream_error'], ['mcp:nova/big', 'too_large'], ['mcp:nova/big', 'ok']]));
  });
});
