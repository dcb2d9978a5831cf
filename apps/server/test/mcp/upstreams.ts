import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * Upstream MCP servers for the gateway tests, built with the SDK's server classes on loopback:
 * `streamable` (streamable HTTP, stateless), `sse` (the legacy HTTP+SSE transport), and kinds that
 * fail (a JSON-RPC error carrying internal text), hang (never answer a call) or answer an older revision;
 * and `stateless`, hand-written, speaking ONLY the stateless 2026-07-28 revision: it refuses
 * `initialize` and any request without `MCP-Protocol-Version: 2026-07-28`, answers `server/discover`,
 * pages `tools/list` two tools at a time, and fails the tool `crash` with internal text.
 */
export type UpstreamKind = 'streamable' | 'sse' | 'fails' | 'hangs' | 'old' | 'stateless';

const STATELESS = '2026-07-28';

export const TOOLS = [
  { name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } } },
  { name: 'add', description: 'Adds a and b', inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } } },
  { name: 'big', description: 'Answers many bytes', inputSchema: { type: 'object' as const, properties: { bytes: { type: 'number' } } } },
  { name: 'slow', description: 'Answers after delay_ms', inputSchema: { type: 'object' as const, properties: { delay_ms: { type: 'number' } } } },
];

export const INTERNAL_DETAIL = 'db-password=hunter2 at 10.0.0.7';

export interface FakeMcp {
  url: string;
  /** Header sets of every HTTP request received. */
  seen: IncomingMessage['headers'][];
  calls: number;
  /** OAuth token endpoint hits (POST /token). */
  tokenHits: number;
  /** When set, requests without `Authorization: Bearer <this>` answer 401. */
  requireBearer?: string;
  close(): Promise<void>;
}

function mcpServer(kind: UpstreamKind, fake: FakeMcp): Server {
  const server = new Server({ name: `fake-${kind}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  if (kind === 'old') {
    server.setRequestHandler(InitializeRequestSchema, async () => ({ protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'fake-old', version: '1.0.0' } }));
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    fake.calls++;
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    if (kind === 'fails') throw new McpError(ErrorCode.InternalError, `tool crashed: ${INTERNAL_DETAIL}`);
    if (kind === 'hangs') return new Promise(() => undefined);
    switch (req.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `echo:${String(args.text ?? '')}` }] };
      case 'add':
        return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] };
      case 'big':
        return { content: [{ type: 'text', text: 'x'.repeat(Number(args.bytes) || 1) }] };
      case 'slow':
        await new Promise((r) => setTimeout(r, Number(args.delay_ms) || 0));
        return { content: [{ type: 'text', text: 'slow done' }] };
      default:
        throw new McpError(ErrorCode.InvalidParams, `unknown tool ${req.params.name}`);
    }
  });
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** The hand-written 2026-07-28 upstream: one JSON answer per POST, no session. */
async function handleStateless(req: IncomingMessage, res: ServerResponse, fake: FakeMcp): Promise<void> {
  const send = (status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const msg = (await readJson(req)) as { id?: string | number; method?: string; params?: Record<string, unknown> };
  const id = msg?.id ?? null;
  const error = (status: number, code: number, message: string) => send(status, { jsonrpc: '2.0', id, error: { code, message } });
  const meta = (msg?.params?._meta ?? {}) as Record<string, unknown>;
  if (req.headers['mcp-protocol-version'] !== STATELESS || meta['io.modelcontextprotocol/protocolVersion'] !== STATELESS) {
    return error(400, -32600, `only protocol revision ${STATELESS} is served`);
  }
  if (req.headers['mcp-session-id']) return error(400, -32600, 'no sessions here');
  const done = (result: Record<string, unknown>) => send(200, { jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
  const params = msg.params ?? {};
  switch (msg.method) {
    case 'server/discover':
      return done({ supportedVersions: [STATELESS], capabilities: { tools: {}, prompts: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake-stateless', version: '1.0.0' } } });
    case 'tools/list': {
      const start = typeof params.cursor === 'string' ? Number(params.cursor) : 0;
      const page = STATELESS_TOOLS.slice(start, start + 2);
      const next = start + 2 < STATELESS_TOOLS.length ? String(start + 2) : undefined;
      return done({ tools: page, ...(next ? { nextCursor: next } : {}) });
    }
    case 'prompts/list':
      return done({ prompts: [{ name: 'greet', description: 'Says hello' }] });
    case 'tools/call': {
      fake.calls++;
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (params.name === 'echo') return done({ content: [{ type: 'text', text: `stateless-echo:${String(args.text ?? '')}` }] });
      if (params.name === 'big') return done({ content: [{ type: 'text', text: 'x'.repeat(Number(args.bytes) || 1) }] });
      if (params.name === 'slow') {
        await new Promise((r) => setTimeout(r, Number(args.delay_ms) || 0));
        return done({ content: [{ type: 'text', text: 'slow done' }] });
      }
      if (params.name === 'crash') return error(200, -32603, `tool crashed: ${INTERNAL_DETAIL}`);
      return error(200, -32602, `unknown tool ${String(params.name)}`);
    }
    default:
      // initialize and everything else the stateful revisions had.
      return error(200, -32601, `method not found: ${String(msg.method)}`);
  }
}

export const STATELESS_TOOLS = [
  TOOLS[0],
  TOOLS[2],
  TOOLS[3],
  { name: 'crash', description: 'Fails with internal text', inputSchema: { type: 'object' as const, properties: {} } },
];

export async function startFakeMcp(kind: UpstreamKind): Promise<FakeMcp> {
  const sse = new Map<string, SSEServerTransport>();
  const fake: FakeMcp = { url: '', seen: [], calls: 0, tokenHits: 0, close: async () => undefined };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/token' && req.method === 'POST') {
      fake.tokenHits++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const good = form.get('grant_type') === 'client_credentials' && form.get('client_id') === 'gw-client' && form.get('client_secret') === 'client-secret-789';
      res.writeHead(good ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(good ? { access_token: 'oauth-at-1', token_type: 'bearer', expires_in: 3600 } : { error: 'invalid_client' }));
      return;
    }
    fake.seen.push(req.headers);
    if (fake.requireBearer && req.headers.authorization !== `Bearer ${fake.requireBearer}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (kind === 'sse') {
      if (req.method === 'GET' && path === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await mcpServer(kind, fake).connect(transport);
        return;
      }
      if (req.method === 'POST' && path === '/messages') {
        const transport = sse.get(new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '');
        if (!transport) return void res.writeHead(404).end();
        await transport.handlePostMessage(req, res, await readJson(req));
        return;
      }
      return void res.writeHead(404).end();
    }
    if (path !== '/mcp') return void res.writeHead(404).end();
    if (kind === 'stateless') return handleStateless(req, res, fake);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    // Stateless: a fresh server and transport per request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = mcpServer(kind, fake);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, await readJson(req));
  };
  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return fake;
}
