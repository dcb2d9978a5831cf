import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { relayState } from '../../src/relay/state.js';
import { credentialsOf } from '../../src/mcp/credentials.js';
import { startFakeMcp, type FakeMcp, type UpstreamKind } from './upstreams.js';

const SECRETS = ['hdr-secret-123', 'bearer-secret-456', 'client-secret-789', 'oauth-at-1'];
const ALL_TOOLS = ['echo', 'add', 'big', 'slow'];

describe.each(testDialects())('MCP gateway (%s)', (dialect) => {
  let f: RelayFixture;
  const fakes = {} as Record<UpstreamKind, FakeMcp>;
  let oauth: FakeMcp;
  const ids: Record<string, number> = {};
  let full: Awaited<ReturnType<RelayFixture['newUser']>>;
  let narrow: Awaited<ReturnType<RelayFixture['newUser']>>;

  const mcpUrl = (u: FakeMcp) => `${u.url}/mcp`;
  async function addServer(body: Record<string, unknown>): Promise<number> {
    const res = await f.root.post('/api/mcp_server/', { groups: '', ...body });
    if (!res.body.success) throw new Error(JSON.stringify(res.body));
    const id = res.body.data.id as number;
    ids[body.name as string] = id;
    const refreshed = await f.root.post(`/api/mcp_server/${id}/refresh`, {});
    expect(refreshed.body.success).toBe(true);
    return id;
  }
  async function client(key: string, path = '/mcp'): Promise<Client> {
    const c = new Client({ name: 'test-client', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${f.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    return c;
  }
  const rpc = (key: string, body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
    fetch(`${f.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers }, body: JSON.stringify(body) });
  const init = (version: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

  beforeAll(async () => {
    f = await relayFixture(dialect, { MCP_MAX_RESULT_BYTES: '65536', BATCH_FLUSH_MS: '60000' });
    for (const kind of ['streamable', 'sse', 'fails', 'hangs', 'old'] as UpstreamKind[]) fakes[kind] = await startFakeMcp(kind);
    oauth = await startFakeMcp('streamable');
    oauth.requireBearer = 'oauth-at-1';
    await addServer({ name: 'alpha', url: mcpUrl(fakes.streamable), headers: { 'x-api-key': 'hdr-secret-123' }, auth: { type: 'bearer', token: 'bearer-secret-456' } });
    await addServer({ name: 'legacy', transport: 'sse', url: `${fakes.sse.url}/sse` });
    await addServer({ name: 'broken', url: mcpUrl(fakes.fails) });
    await addServer({ name: 'stuck', url: mcpUrl(fakes.hangs), timeout_ms: 1000 });
    await addServer({ name: 'oldie', url: mcpUrl(fakes.old) });
    await addServer({ name: 'vip-only', url: mcpUrl(fakes.streamable), groups: 'vip' });
    await addServer({ name: 'paid', url: mcpUrl(fakes.streamable), price: 1000 });
    await addServer({ name: 'oauthed', url: mcpUrl(oauth), auth: { type: 'oauth-client-credentials', token_url: `${oauth.url}/token`, client_id: 'gw-client', client_secret: 'client-secret-789' } });
    full = await f.newUser({ quota: 10_000, token: { unlimited_quota: true } });
    narrow = await f.newUser({ quota: 10_000, token: { mcp_tools: 'alpha/echo,legacy/*' } });
  });
  afterAll(async () => {
    await f?.close();
    for (const u of [...Object.values(fakes), oauth]) await u?.close();
  });

  it('refreshes catalogues with the negotiated upstream revision (streamable 2025-11-25, legacy SSE, an older server at 2024-11-05)', async () => {
    const list = (await f.root.get('/api/mcp_server/?p=0&size=20')).body;
    expect(list.success).toBe(true);
    const byName = Object.fromEntries(list.data.data.map((s: { name: string }) => [s.name, s]));
    expect(byName.alpha.tools.map((t: { name: string }) => t.name)).toEqual(ALL_TOOLS);
    expect(byName.alpha.protocol_version).toBe('2025-11-25');
    expect(byName.alpha.header_names).toEqual(['x-api-key']);
    expect(byName.alpha.auth_type).toBe('bearer');
    expect(byName.legacy.tool_count).toBe(4);
    expect(byName.legacy.last_error).toBe('');
    expect(byName.oldie.protocol_version).toBe('2024-11-05');
    expect(byName.oauthed.tool_count).toBe(4);
    // The upstream got the stored header and bearer.
    expect(fakes.streamable.seen.some((h) => h['x-api-key'] === 'hdr-secret-123' && h.authorization === 'Bearer bearer-secret-456')).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(new RegExp(SECRETS.join('|')));
  });

  it('lists the union of the allowed tools, prefixed by server; a narrow token sees only its patterns; vip-only servers stay hidden', async () => {
    const c = await client(full.key);
    const names = (await c.listTools()).tools.map((t) => t.name).sort();
    const expected = ['alpha', 'legacy', 'broken', 'stuck', 'oldie', 'paid', 'oauthed'].flatMap((s) => ALL_TOOLS.map((t) => `${s}__${t}`)).sort();
    expect(names).toEqual(expected);
    await c.close();
    const n = await client(narrow.key);
    expect((await n.listTools()).tools.map((t) => t.name).sort()).toEqual(['alpha__echo', 'legacy__add', 'legacy__big', 'legacy__echo', 'legacy__slow']);
    // Refused on call, not just hidden, and upstream never asked.
    const before = fakes.streamable.calls;
    await expect(n.callTool({ name: 'alpha__add', arguments: { a: 1, b: 2 } })).rejects.toThrow(/not available/);
    await expect(n.callTool({ name: 'vip-only__echo', arguments: {} })).rejects.toThrow(/not available/);
    expect(fakes.streamable.calls).toBe(before);
    await n.close();
  });

  it('calls tools through streamable HTTP, legacy SSE, an older upstream and OAuth client credentials (token fetched once)', async () => {
    const c = await client(full.key);
    expect(await c.callTool({ name: 'alpha__echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'echo:hi' }] });
    expect(await c.callTool({ name: 'legacy__add', arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    expect(await c.callTool({ name: 'oldie__echo', arguments: { text: 'old' } })).toMatchObject({ content: [{ text: 'echo:old' }] });
    expect(await c.callTool({ name: 'oauthed__echo', arguments: { text: 'o' } })).toMatchObject({ content: [{ text: 'echo:o' }] });
    expect(await c.callTool({ name: 'oauthed__echo', arguments: { text: 'o2' } })).toMatchObject({ content: [{ text: 'echo:o2' }] });
    expect(oauth.tokenHits).toBe(1);
    await c.close();
    // One server's endpoint: its own tool names.
    const one = await client(full.key, '/mcp/alpha');
    expect((await one.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    expect(await one.callTool({ name: 'echo', arguments: { text: 'scoped' } })).toMatchObject({ content: [{ text: 'echo:scoped' }] });
    await one.close();
  });

  it('answers an upstream error, a hang and an oversized result with a generic error carrying the request id; the admin log holds the detail', async () => {
    const c = await client(full.key);
    const fail = await c.callTool({ name: 'broken__echo', arguments: {} }).catch((e: Error) => e.message);
    expect(fail).toMatch(/upstream error \(request id: \w+\)/);
    expect(fail).not.toContain('10.0.0.7');
    const started = Date.now();
    const hang = await c.callTool({ name: 'stuck__echo', arguments: {} }).catch((e: Error) => e.message);
    expect(hang).toMatch(/upstream timed out \(request id: \w+\)/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const big = await c.callTool({ name: 'alpha__big', arguments: { bytes: 200_000 } }).catch((e: Error) => e.message);
    expect(big).toMatch(/upstream result too large/);
    await c.close();
    await relayState(f.server.ctx).recorder.flush();
    const adminRows = (await f.root.get('/api/log/?p=0&size=100&log_type=5')).body.data.data as { content: string; model_name: string }[];
    expect(adminRows.find((r) => r.model_name === 'mcp:broken/echo')?.content).toContain('tool crashed');
    const own = JSON.stringify((await full.client.get('/api/log/self?p=0&size=100')).body);
    expect(own).toContain('mcp:broken/echo');
    expect(own).not.toMatch(/10\.0\.0\.7|tool crashed|hunter2/);
  });

  it('bills a priced call once, logs every call with sizes, and never shows credentials to the user', async () => {
    await f.flush();
    const quota = async () => Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', full.userId).executeTakeFirstOrThrow()).quota);
    const before = await quota();
    const c = await client(full.key);
    await c.callTool({ name: 'paid__echo', arguments: { text: 'money' } });
    await c.close();
    await f.flush();
    expect(before - (await quota())).toBe(1000);
    const rows = (await full.client.get('/api/log/self?p=0&size=100')).body.data.data as { model_name: string; quota: number; type: number; metadata: Record<string, unknown> }[];
    const paid = rows.filter((r) => r.model_name === 'mcp:paid/echo');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ type: 2, quota: 1000 });
    expect(paid[0].metadata).toMatchObject({ mcp_server: 'paid', mcp_tool: 'echo', mcp_status: 'ok', argument_bytes: JSON.stringify({ text: 'money' }).length });
    expect(Number(paid[0].metadata.result_bytes)).toBeGreaterThan(0);
    expect(rows.some((r) => r.model_name === 'mcp:alpha/echo' && r.quota === 0)).toBe(true);
    expect(JSON.stringify(rows)).not.toMatch(new RegExp(SECRETS.join('|')));
    const adminLogs = JSON.stringify((await f.root.get('/api/log/?p=0&size=100')).body);
    expect(adminLogs).not.toMatch(new RegExp(SECRETS.join('|')));
  });

  it('lets a plan covering mcp:<server>/<tool> pay a priced call from its window before the balance', async () => {
    const made = await f.root.post('/api/plan/', { name: 'MCP', price: 1, currency: 'USD', duration_kind: 'month', duration_count: 1, window_kind: '5h', window_quota: 1500, models: ['mcp:paid/echo'] });
    expect(made.body.success).toBe(true);
    const u = await f.newUser({ quota: 10_000 });
    expect((await f.root.post('/api/plan/grant', { user_id: u.userId, plan_id: made.body.data.id })).body.success).toBe(true);
    await relayState(f.server.ctx).plans.load();
    const c = await client(u.key);
    expect(await c.callTool({ name: 'paid__echo', arguments: { text: 'p' } })).toMatchObject({ content: [{ text: 'echo:p' }] });
    // 500 left in the window, the call costs 1000, and this user did not allow falling back to the balance.
    await expect(c.callTool({ name: 'paid__echo', arguments: { text: 'p' } })).rejects.toThrow(/plan window spent/);
    await c.close();
    await f.flush();
    expect(Number((await f.server.ctx.db.selectFrom('users').select('quota').where('id', '=', u.userId).executeTakeFirstOrThrow()).quota)).toBe(10_000);
    const rows = await f.server.ctx.db.selectFrom('logs').select(['quota', 'metadata']).where('user_id', '=', u.userId).where('type', '=', 2).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].metadata!)).toMatchObject({ plan_quota: 1000, mcp_status: 'ok' });
  });

  it('negotiates each revision: 2025-06-18 and 2025-11-25 with a session bound to the token, 2026-07-28 stateless', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await rpc(full.key, init(version));
      expect((await res.json()).result.protocolVersion).toBe(version);
      const session = res.headers.get('mcp-session-id');
      expect(session).toBeTruthy();
      const listed = await rpc(full.key, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session!, 'mcp-protocol-version': version });
      expect((await listed.json()).result.tools.length).toBeGreaterThan(0);
      // Another token cannot use it.
      const stolen = await rpc(narrow.key, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': session! });
      expect(stolen.status).toBe(404);
    }
    const stateless = await rpc(full.key, init('2026-07-28'));
    expect((await stateless.json()).result.protocolVersion).toBe('2026-07-28');
    expect(stateless.headers.get('mcp-session-id')).toBeNull();
    const direct = await rpc(full.key, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'alpha__echo', arguments: { text: 's' } } }, { 'mcp-protocol-version': '2026-07-28' });
    expect((await direct.json()).result).toMatchObject({ resultType: 'complete', content: [{ text: 'echo:s' }] });
    const discover = await (await rpc(full.key, { jsonrpc: '2.0', id: 5, method: 'server/discover', params: {} })).json();
    expect(discover.result.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']));
    // A stateful revision without its session is refused; an unknown revision asks 2025-11-25.
    expect((await rpc(full.key, { jsonrpc: '2.0', id: 6, method: 'tools/list' })).status).toBe(400);
    expect((await (await rpc(full.key, init('2099-01-01'))).json()).result.protocolVersion).toBe('2025-11-25');
    // The SDK's own client negotiates its latest.
    const transport = new StreamableHTTPClientTransport(new URL(`${f.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${full.key}` } } });
    const c = new Client({ name: 'sdk', version: '1' });
    await c.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeTruthy();
    await c.close();
  });

  it('keeps arguments and results only under a capture rule, redacted; ends a session on DELETE', async () => {
    const captures = () => f.server.ctx.db.selectFrom('log_captures').selectAll().where('user_id', '=', full.userId).execute();
    const c = await client(full.key);
    const args = { text: 'plain-arg', api_key: 'sk-abcdefghijklmnopqrstuvwxyz123456' };
    await c.callTool({ name: 'alpha__echo', arguments: args });
    await new Promise((r) => setImmediate(r));
    expect(await captures()).toHaveLength(0);
    await f.setOption('LogCaptureRules', JSON.stringify([{ kind: 'user', id: full.userId, until: Math.floor(Date.now() / 1000) + 3600 }]));
    try {
      await c.callTool({ name: 'alpha__echo', arguments: args });
      await expect.poll(async () => (await captures()).length, { timeout: 5000 }).toBe(1);
      const [row] = await captures();
      expect(row.request_body).toContain('plain-arg');
      expect(row.request_body).not.toContain('abcdefghijklmnopqrstuvwxyz');
      expect(row.response_body).toContain('echo:plain-arg');
      expect(row.request_headers).not.toContain(full.key.slice(3));
    } finally {
      await f.setOption('LogCaptureRules', '[]');
    }
    await c.close();
    const opened = await rpc(full.key, init('2025-11-25'));
    const session = opened.headers.get('mcp-session-id')!;
    expect((await fetch(`${f.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${narrow.key}`, 'mcp-session-id': session } })).status).toBe(404);
    expect((await fetch(`${f.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${full.key}`, 'mcp-session-id': session } })).status).toBe(200);
    expect((await rpc(full.key, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { 'mcp-session-id': session })).status).toBe(404);
  });

  it('refuses a bad key, and answers JSON-RPC errors for bad input', async () => {
    const bad = await rpc('sk-not-a-real-key-not-a-real-key-000000', init('2025-11-25'));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.message).toMatch(/request id/);
    const garbage = await fetch(`${f.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${full.key}` }, body: '{nope' });
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).error.code).toBe(-32700);
    expect((await fetch(`${f.url}/mcp`, { headers: { authorization: `Bearer ${full.key}` } })).status).toBe(405);
  });

  it('admin API: admins only, validation answers 4xx with a message, stdio off, guard refuses private and metadata URLs', async () => {
    const user = full.client;
    const denied = await user.get('/api/mcp_server/');
    expect(denied.body.success).toBe(false);
    expect((await user.post('/api/mcp_server/', { name: 'x', url: mcpUrl(fakes.streamable) })).body.success).toBe(false);
    const badName = await f.root.post('/api/mcp_server/', { name: 'Bad Name', url: mcpUrl(fakes.streamable) });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toBeTruthy();
    expect((await f.root.post('/api/mcp_server/', { name: 'a__b', url: mcpUrl(fakes.streamable) })).status).toBe(400);
    const stdio = await f.root.post('/api/mcp_server/', { name: 'local', transport: 'stdio', url: 'node server.js' });
    expect(stdio.status).toBe(400);
    expect(stdio.body.message).toMatch(/MCP_ALLOW_STDIO/);
    expect((await f.root.post('/api/mcp_server/', { name: 'alpha', url: mcpUrl(fakes.streamable) })).status).toBe(400);
    expect((await f.root.put('/api/mcp_server/', { id: 999_999, price: 1 })).status).toBe(404);
    expect((await f.root.delete('/api/mcp_server/abc')).status).toBe(400);
    await f.setOption('FetchAllowPrivateNetworks', false);
    try {
      for (const url of ['http://169.254.169.254/latest/meta-data', 'http://127.0.0.1:9/mcp', 'http://localhost:9/mcp']) {
        const res = await f.root.post('/api/mcp_server/', { name: 'meta', url });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/private or local network/);
      }
      // Saved before the guard went on: refused at connection time too.
      const refreshed = (await f.root.post(`/api/mcp_server/${ids.alpha}/refresh`, {})).body.data;
      expect(refreshed.last_error).toMatch(/refused/);
      const c = await client(full.key);
      const err = await c.callTool({ name: 'alpha__echo', arguments: {} }).catch((e: Error) => e.message);
      expect(err).toMatch(/upstream error/);
      await c.close();
    } finally {
      await f.setOption('FetchAllowPrivateNetworks', true);
    }
    expect((await f.root.post(`/api/mcp_server/${ids.alpha}/refresh`, {})).body.data.last_error).toBe('');
    // A header row sent with an empty value keeps its stored value (the console never sees values).
    const kept = await f.root.put('/api/mcp_server/', { id: ids.alpha, headers: { 'x-api-key': '', 'x-extra': 'extra-value' } });
    expect(kept.body.data.header_names).toEqual(['x-api-key', 'x-extra']);
    expect(JSON.stringify(kept.body)).not.toContain('hdr-secret-123');
    const stored = await f.server.ctx.db.selectFrom('mcp_servers').selectAll().where('id', '=', ids.alpha).executeTakeFirstOrThrow();
    expect(credentialsOf(f.server.ctx, stored).headers).toEqual({ 'x-api-key': 'hdr-secret-123', 'x-extra': 'extra-value' });
    // Update keeps credentials unless sent; delete removes.
    const upd = await f.root.put('/api/mcp_server/', { id: ids.oldie, price: 5, enabled: false });
    expect(upd.body.data).toMatchObject({ price: 5, enabled: false });
    expect((await f.root.delete(`/api/mcp_server/${ids.oldie}`)).body.success).toBe(true);
    expect((await f.root.get(`/api/mcp_server/${ids.oldie}`)).status).toBe(404);
  });

  it('refreshes every enabled catalogue from the scheduled job (run on demand here)', async () => {
    const row = () => f.server.ctx.db.selectFrom('mcp_servers').select(['last_refresh_time', 'catalogue']).where('name', '=', 'legacy').executeTakeFirstOrThrow();
    await f.server.ctx.db.updateTable('mcp_servers').set({ last_refresh_time: 1, catalogue: null }).where('name', '=', 'legacy').execute();
    expect((await f.root.post('/api/system_info/jobs/mcp_refresh/run', {})).body.success).toBe(true);
    const job = async () => ((await f.root.get('/api/system_info/jobs')).body.data.jobs as { name: string; running: boolean; last_outcome: string | null; last_message: string }[]).find((j) => j.name === 'mcp_refresh')!;
    await expect.poll(async () => { const j = await job(); return !j.running && j.last_outcome; }, { timeout: 20_000 }).toBe('ok');
    expect((await job()).last_message).toMatch(/^refreshed \d+, failed \d+$/);
    expect((await row()).last_refresh_time).toBeGreaterThan(1);
    expect(JSON.parse((await row()).catalogue!).tools).toHaveLength(4);
  });

  it('keeps a token\'s mcp_tools: validated patterns on create and update, shown to its owner', async () => {
    const u = full.client;
    const bad = await u.post('/api/token/', { name: 'badmcp', mcp_tools: 'no slash here' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/mcp_tools/);
    expect((await u.post('/api/token/', { name: 'goodmcp', mcp_tools: 'alpha/*,*/echo' })).body.success).toBe(true);
    const made = ((await u.get('/api/token/')).body.data.data as { id: number; name: string; mcp_tools: string }[]).find((t) => t.name === 'goodmcp')!;
    expect(made.mcp_tools).toBe('alpha/*,*/echo');
    expect((await u.put('/api/token/', { id: made.id, mcp_tools: 'legacy/add' })).body.success).toBe(true);
    expect((await u.get(`/api/token/${made.id}`)).body.data.mcp_tools).toBe('legacy/add');
    expect((await u.put('/api/token/', { id: made.id, mcp_tools: 'Bad/*' })).status).toBe(400);
  });
});
