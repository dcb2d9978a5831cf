import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { toHubError } from '../http/errors.js';
import { relayState } from '../relay/state.js';
import type { RelayState } from '../relay/pipeline/relay-state.js';
import { authenticate } from '../relay/pipeline/flow/caller.js';
import { callerGroup, checkRate } from '../relay/pipeline/flow/prepare.js';
import { withTaskLimits } from '../relay/tasks/limits.js';
import { scrubText } from '../egress/scrub.js';
import { credentialsOf, secretValues } from './credentials.js';
import { McpSessions } from './sessions.js';
import { McpServerCache, entitled, exposedName, resolveName, type EntitledServer } from './entitlements.js';
import { openDoorSpan } from '../telemetry/door-spans.js';
import { holdCall, logCall, releaseCall, settleCall, type McpFacts, type McpHold } from './accounting.js';
import { asUpstreamFailure, callerMessage, connectUpstream, type Upstream, type UpstreamFailure } from './upstream.js';

/**
 * The gateway's own MCP endpoint (issue 40): `/mcp` serves the union of the tools a token may use,
 * named `<server>__<tool>`; `/mcp/{server}` one server's tools under their own names. Streamable
 * HTTP, JSON answers (no server-to-client stream: GET answers 405). Revisions:
 * - 2025-06-18 and 2025-11-25 (and the older 2025-03-26, 2024-11-05): `initialize` opens a session
 *   (`Mcp-Session-Id`, this node only, bound to the token and the path); later requests must carry it.
 * - 2026-07-28, the stateless revision: no session. `initialize` asking for it is answered without
 *   `Mcp-Session-Id`; any request whose `MCP-Protocol-Version` header (or
 *   `_meta["io.modelcontextprotocol/protocolVersion"]`) says 2026-07-28 is served on its own;
 *   `server/discover` answers the supported revisions and capabilities.
 * Negotiation: the client's revision when supported, else the newest stateful one (2025-11-25).
 * The upstream side negotiates on its own (upstream.ts).
 */

export const STATELESS_REVISION = '2026-07-28';
export const SUPPORTED_REVISIONS = [STATELESS_REVISION, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const DEFAULT_REVISION = '2025-11-25';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, session: -32001, auth: -32002 } as const;

type Id = string | number | null;
interface Message {
  jsonrpc?: unknown;
  id?: Id;
  method?: unknown;
  params?: Record<string, unknown>;
}

const rpcError = (id: Id, code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
const rpcResult = (id: Id, result: unknown) => ({ jsonrpc: '2.0', id, result });

interface Gateway {
  ctx: AppContext;
  state: RelayState;
  sessions: McpSessions;
  servers: McpServerCache;
}

export async function registerMcpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const gw: Gateway = { ctx, state: relayState(ctx), sessions: new McpSessions(), servers: new McpServerCache(ctx) };
  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    const parse = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error as { statusCode?: number }).statusCode === 400;
    return reply.status(hub.status >= 500 ? 500 : hub.status).send(rpcError(null, parse ? RPC.parse : RPC.internal, `${hub.status >= 500 ? 'internal error' : hub.message} (request id: ${req.id})`));
  });
  const post = (req: FastifyRequest, reply: FastifyReply) => handlePost(gw, req, reply, scopeOf(req));
  const get = (req: FastifyRequest, reply: FastifyReply) => reply.status(405).header('allow', 'POST, DELETE').send(rpcError(null, RPC.invalidRequest, 'this endpoint sends no server-initiated stream; use POST'));
  const del = (req: FastifyRequest, reply: FastifyReply) => handleDelete(gw, req, reply, scopeOf(req));
  const opts = { bodyLimit: 4 * 1024 * 1024 };
  app.post('/mcp', opts, post);
  app.post('/mcp/:server', opts, post);
  app.get('/mcp', get);
  app.get('/mcp/:server', get);
  app.delete('/mcp', del);
  app.delete('/mcp/:server', del);
}

const scopeOf = (req: FastifyRequest) => (req.params as { server?: string }).server ?? '';

/** Authenticates as the relay does (token, owner, expiry, IP list, the user's API rate). */
async function callerOf(gw: Gateway, req: FastifyRequest): Promise<{ facts: McpFacts } | { status: number; message: string }> {
  try {
    const startedAt = Date.now();
    const caller = await authenticate(gw.ctx, gw.state.callers, req, 'openai');
    const group = callerGroup(caller);
    const groupRow = gw.state.groups.get(group);
    if (!groupRow) throw new HubError(403, `分组 ${group} 不存在`, { code: 'group_not_found' });
    await checkRate(gw.state, caller.user.id, groupRow.api_rate);
    return { facts: { caller, group, groupRatio: Number(groupRow.ratio), startedAt, stream: false, requestId: req.id, ip: req.ip } };
  } catch (error) {
    const hub = toHubError(error);
    return { status: hub.status, message: hub.message };
  }
}

function headerOf(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function handleDelete(gw: Gateway, req: FastifyRequest, reply: FastifyReply, scope: string) {
  const who = await callerOf(gw, req);
  if (!('facts' in who)) return reply.status(who.status).send(rpcError(null, RPC.auth, `${who.message} (request id: ${req.id})`));
  const id = headerOf(req, 'mcp-session-id');
  if (!id || !gw.sessions.find(id, who.facts.caller.token.id, scope)) return reply.status(404).send(rpcError(null, RPC.session, 'session not found'));
  gw.sessions.close(id);
  return reply.status(200).send();
}

async function handlePost(gw: Gateway, req: FastifyRequest, reply: FastifyReply, scope: string) {
  const who = await callerOf(gw, req);
  const body = req.body as Message | Message[] | undefined;
  const id: Id = body && !Array.isArray(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
  if (!('facts' in who)) return reply.status(who.status).send(rpcError(id, RPC.auth, `${who.message} (request id: ${req.id})`));
  const { facts } = who;
  if (Array.isArray(body)) return reply.status(400).send(rpcError(null, RPC.invalidRequest, 'JSON-RPC batches are not supported'));
  if (!body || typeof body !== 'object' || body.jsonrpc !== '2.0') return reply.status(400).send(rpcError(id, RPC.invalidRequest, 'not a JSON-RPC 2.0 message'));
  // A response or a notification from the client: accepted, nothing to answer.
  if (typeof body.method !== 'string') return reply.status(202).send();
  const method = body.method;
  const params = body.params && typeof body.params === 'object' ? body.params : {};
  const servers = entitled(await gw.servers.all(), facts.group, facts.caller.token.mcp_tools ?? '', scope);
  if (scope && !servers.length) return reply.status(404).send(rpcError(id, RPC.invalidRequest, `no MCP server ${scope} for this token`));

  let revision: string;
  if (method === 'initialize') {
    const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
    revision = SUPPORTED_REVISIONS.includes(asked) ? asked : DEFAULT_REVISION;
    if (revision !== STATELESS_REVISION) reply.header('mcp-session-id', gw.sessions.open(facts.caller.token.id, scope, revision).id);
    return reply.send(rpcResult(id, { protocolVersion: revision, capabilities: capabilities(), serverInfo: serverInfo(gw, scope), instructions: instructions(scope) }));
  }
  const sessionId = headerOf(req, 'mcp-session-id');
  const metaVersion = (params._meta as Record<string, unknown> | undefined)?.[META_VERSION];
  const asked = headerOf(req, 'mcp-protocol-version') ?? (typeof metaVersion === 'string' ? metaVersion : undefined);
  if (sessionId) {
    const session = gw.sessions.find(sessionId, facts.caller.token.id, scope);
    if (!session) return reply.status(404).send(rpcError(id, RPC.session, 'session not found'));
    revision = session.protocolVersion;
  } else if (asked === STATELESS_REVISION || method === 'server/discover') {
    revision = STATELESS_REVISION;
  } else if (asked && !SUPPORTED_REVISIONS.includes(asked)) {
    return reply.status(400).send(rpcError(id, RPC.invalidRequest, `unsupported protocol version ${asked}`, { supported: SUPPORTED_REVISIONS }));
  } else {
    return reply.status(400).send(rpcError(id, RPC.invalidRequest, 'Mcp-Session-Id header is required (send initialize first, or use protocol revision 2026-07-28)'));
  }
  if (body.id === undefined) return reply.status(202).send();
  const stateless = revision === STATELESS_REVISION;
  const done = (result: Record<string, unknown>) => reply.send(rpcResult(id, stateless ? { resultType: 'complete', ...result } : result));
  switch (method) {
    case 'ping':
      return done({});
    case 'server/discover':
      return done({ supportedVersions: SUPPORTED_REVISIONS, capabilities: capabilities(), serverInfo: serverInfo(gw, scope), instructions: instructions(scope) });
    case 'tools/list':
      return done({ tools: listTools(servers, scope) });
    case 'resources/list':
      return done({ resources: [] });
    case 'resources/templates/list':
      return done({ resourceTemplates: [] });
    case 'prompts/list':
      return done({ prompts: [] });
    case 'logging/setLevel':
      return done({});
    case 'tools/call':
      return callTool(gw, req, reply, facts, servers, scope, id, params, revision, done);
    default:
      return reply.send(rpcError(id, RPC.methodNotFound, `method not found: ${method}`));
  }
}

const capabilities = () => ({ tools: { listChanged: false } });
const serverInfo = (gw: Gateway, scope: string) => ({ name: scope ? `one-hub-mcp/${scope}` : 'one-hub-mcp', version: gw.ctx.version });
const instructions = (scope: string) => (scope ? `Tools of the MCP server ${scope}, through the One Hub gateway.` : 'Tools of the MCP servers this key may use, named <server>__<tool>.');

function listTools(servers: EntitledServer[], scope: string) {
  return servers.flatMap(({ row, tools }) =>
    tools.map((t) => ({
      name: exposedName(row.name, t.name, scope),
      description: t.description,
      inputSchema: t.input_schema && typeof t.input_schema === 'object' ? t.input_schema : { type: 'object' },
    })),
  );
}

const bytes = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? ''));

async function callTool(
  gw: Gateway,
  req: FastifyRequest,
  reply: FastifyReply,
  facts: McpFacts,
  servers: EntitledServer[],
  scope: string,
  id: Id,
  params: Record<string, unknown>,
  revision: string,
  done: (result: Record<string, unknown>) => FastifyReply,
) {
  const name = typeof params.name === 'string' ? params.name : '';
  const args = params.arguments && typeof params.arguments === 'object' ? (params.arguments as Record<string, unknown>) : {};
  const target = resolveName(name, scope);
  const server = target && servers.find((s) => s.row.name === target.server && s.tools.some((t) => t.name === target.tool));
  if (!target || !server) {
    // Not listed for this token (unknown, or outside its entitlements): refused the same way, without calling upstream.
    return reply.send(rpcError(id, RPC.invalidParams, `tool ${name || '(none)'} is not available to this key`));
  }
  const { row } = server;
  const { state } = gw;
  const started = Date.now();
  facts.span = openDoorSpan(gw.ctx, req, `tools/call ${target.tool}`, {
    'mcp.method.name': 'tools/call',
    'mcp.protocol.version': revision,
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': target.tool,
    'one-hub.mcp.server': row.name,
  });
  const base = { server: row.name, tool: target.tool, argumentBytes: bytes(args), price: row.price, protocolVersion: revision };
  let hold: McpHold | undefined;
  let upstream: Upstream | undefined;
  try {
    const model = `mcp:${row.name}/${target.tool}`;
    return await withTaskLimits(state, facts, model, async () => {
      hold = await holdCall(state, facts, row.price, model);
      let result: Record<string, unknown>;
      try {
        upstream = await connectUpstream(gw.ctx, row);
        result = (await upstream.client.callTool({ name: target.tool, arguments: args }, undefined, { timeout: row.timeout_ms })) as Record<string, unknown>;
        if (upstream.tooLarge) throw new Error('too large');
      } catch (error) {
        const failure = asUpstreamFailure(error, upstream?.tooLarge ?? false);
        releaseCall(state, hold);
        return failed(gw, req, reply, facts, id, row, base, started, failure);
      }
      const toolError = result.isError === true;
      // A tool that reports its own failure ran but did not serve: nothing is charged.
      let billed = 0;
      if (toolError) releaseCall(state, hold);
      else billed = settleCall(state, facts, hold);
      logCall(state, facts, { ...base, durationMs: Date.now() - started, status: toolError ? 'tool_error' : 'ok', resultBytes: bytes(result), billed, plan: hold.planHold && hold.planPaid ? { hold: hold.planHold, paid: hold.planPaid } : undefined });
      capture(gw, req, facts, 200, { name, arguments: args }, result);
      return done(result);
    });
  } catch (error) {
    // Refused before the upstream call: limits, rate, balance.
    releaseCall(state, hold);
    const hub = toHubError(error);
    logCall(state, facts, { ...base, durationMs: Date.now() - started, status: 'refused', resultBytes: 0, billed: 0, told: hub.message, adminText: `${hub.status} ${hub.message}` });
    return reply.send(rpcError(id, hub.status === 429 ? RPC.internal : RPC.invalidRequest, `${hub.message} (request id: ${req.id})`, { status: hub.status, code: hub.code }));
  } finally {
    await upstream?.close();
  }
}

function failed(
  gw: Gateway,
  req: FastifyRequest,
  reply: FastifyReply,
  facts: McpFacts,
  id: Id,
  row: EntitledServer['row'],
  base: { server: string; tool: string; argumentBytes: number; price: number; protocolVersion: string },
  started: number,
  failure: UpstreamFailure,
) {
  const told = callerMessage(failure, req.id);
  const status = failure.kind === 'too_large' ? 'too_large' : failure.kind === 'timeout' ? 'timeout' : 'upstream_error';
  const adminText = scrubText(`${failure.kind}: ${failure.message}`, secretValues(credentialsOf(gw.ctx, row)), true);
  logCall(gw.state, facts, { ...base, durationMs: Date.now() - started, status, resultBytes: 0, billed: 0, told, adminText });
  capture(gw, req, facts, failure.kind === 'timeout' ? 504 : 502, { name: base.tool, arguments: undefined }, { error: told });
  return reply.send(rpcError(id, RPC.internal, told, { request_id: req.id }));
}

/** Arguments and results are kept only under the capture rules (LogCaptureRules), redacted there. */
function capture(gw: Gateway, req: FastifyRequest, facts: McpFacts, status: number, request: unknown, response: unknown): void {
  const { capture } = gw.state;
  if (!capture.active || !capture.matches(facts.caller.user.id, facts.caller.token.id, 0)) return;
  capture.record({ requestId: req.id, userId: facts.caller.user.id, tokenId: facts.caller.token.id, channelId: 0, status, headers: req.headers, request, response });
}
