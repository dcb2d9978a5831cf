import { createHash } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpAuth } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { outboundFetch } from '../egress/outbound.js';
import { checkOutboundUrl, isEgressRefused } from '../egress/guard.js';
import type { McpServerRow } from '../db/repos/mcp-servers.js';
import { credentialsOf, type McpCredentials } from './credentials.js';
import { STATELESS_REVISION, StatelessClient, StatelessRpcError } from './stateless-client.js';

/**
 * The gateway as a client of one upstream MCP server: the SDK's Client over streamable HTTP or
 * the legacy HTTP+SSE transport (stdio only when MCP_ALLOW_STDIO is set). Every request goes
 * through the egress guard (outboundFetch), carries the server's stored headers and bearer or
 * OAuth client-credentials token, and no answer is read past MCP_MAX_RESULT_BYTES.
 * The protocol revision, highest first: a streamable HTTP upstream is first asked statelessly
 * (`server/discover` with `MCP-Protocol-Version: 2026-07-28`); one that offers 2026-07-28 is spoken to
 * with plain JSON-RPC POSTs (stateless-client.ts). Otherwise (an error, a 4xx, not offered) the SDK's
 * negotiation: it asks for its latest (2025-11-25) and accepts any older revision it knows
 * (2025-06-18, 2025-03-26, 2024-11-05) that the server answers.
 */

export const CLIENT_INFO = { name: 'one-hub-mcp-gateway', version: '1.0.0' };

/** Why an upstream call failed, for the admin's view; the caller is told only `kind`. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: 'too_large' | 'timeout' | 'refused' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** What the gateway asks of an upstream: the SDK's Client, or the stateless 2026-07-28 client. */
export interface UpstreamClient {
  getServerCapabilities(): { tools?: unknown; resources?: unknown; prompts?: unknown } | undefined;
  listTools(params?: { cursor?: string }, opts?: { timeout?: number }): Promise<{ tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[]; nextCursor?: string }>;
  listResources(params?: { cursor?: string }, opts?: { timeout?: number }): Promise<{ resources: { uri: string; name: string; description?: string; mimeType?: string }[]; nextCursor?: string }>;
  listPrompts(params?: { cursor?: string }, opts?: { timeout?: number }): Promise<{ prompts: { name: string; description?: string }[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, opts?: { timeout?: number }): Promise<Record<string, unknown>>;
}

export interface Upstream {
  client: UpstreamClient;
  protocolVersion: string;
  /** Set when an answer passed MCP_MAX_RESULT_BYTES (the read was cut). */
  readonly tooLarge: boolean;
  close(): Promise<void>;
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A body that errors once more than `max` bytes went through. */
function capped(body: ReadableStream<Uint8Array>, max: number, onExceed: () => void): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) {
          onExceed();
          controller.error(new UpstreamFailure('too_large', `upstream answer larger than ${max} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

function plainHeaders(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const [k, v] of h) out[k.toLowerCase()] = v;
  else for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  return out;
}

/** fetch for the SDK's transports: guarded, with the server's headers, the answer capped. */
function gatewayFetch(extra: Record<string, string>, max: number, onExceed: () => void): FetchLike {
  return async (url, init = {}) => {
    const headers = { ...plainHeaders(init.headers), ...extra };
    const res = await outboundFetch(url, { method: init.method, headers, body: init.body as never, signal: init.signal ?? undefined, redirect: init.redirect });
    const body = res.body ? capped(res.body as unknown as ReadableStream<Uint8Array>, max, onExceed) : null;
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  };
}

interface CachedToken {
  token: string;
  expiresAt: number;
}
const oauthTokens = new Map<string, CachedToken>();

/** OAuth 2 client credentials: POST token_url, the token cached until shortly before it expires. */
async function clientCredentialsToken(auth: Extract<McpAuth, { type: 'oauth-client-credentials' }>, timeoutMs: number): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify([auth.token_url, auth.client_id, auth.client_secret, auth.scope])).digest('hex');
  const hit = oauthTokens.get(key);
  if (hit && hit.expiresAt > Date.now()) return hit.token;
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.client_id, client_secret: auth.client_secret });
  if (auth.scope) form.set('scope', auth.scope);
  const res = await outboundFetch(auth.token_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: { access_token?: unknown; expires_in?: unknown } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: handled below
  }
  if (res.status >= 400 || typeof json.access_token !== 'string') throw new UpstreamFailure('failed', `OAuth token endpoint answered ${res.status}`);
  const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 300;
  if (oauthTokens.size > 1000) oauthTokens.clear();
  oauthTokens.set(key, { token: json.access_token, expiresAt: Date.now() + Math.max(lifetime - 30, 1) * 1000 });
  return json.access_token;
}

/** The headers a server's credential adds. */
async function credentialHeaders(creds: McpCredentials, timeoutMs: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(creds.headers)) out[k.toLowerCase()] = v;
  if (creds.auth.type === 'bearer') out.authorization = `Bearer ${creds.auth.token}`;
  if (creds.auth.type === 'oauth-client-credentials') out.authorization = `Bearer ${await clientCredentialsToken(creds.auth, timeoutMs)}`;
  return out;
}

/** The SDK's client side, loaded at the first connection to an upstream (about 5 MB of heap a gateway without MCP servers need not hold). */
async function clientSdk() {
  const [{ Client }, { StreamableHTTPClientTransport }, { SSEClientTransport }, { StdioClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  return { Client, StreamableHTTPClientTransport, SSEClientTransport, StdioClientTransport };
}
type ClientSdk = Awaited<ReturnType<typeof clientSdk>>;

function transportFor(ctx: AppContext, row: McpServerRow, fetch: FetchLike, { StdioClientTransport, SSEClientTransport, StreamableHTTPClientTransport }: ClientSdk): Transport {
  if (row.transport === 'stdio') {
    if (!ctx.config.MCP_ALLOW_STDIO) throw new UpstreamFailure('refused', 'stdio servers are off (MCP_ALLOW_STDIO is not set)');
    const [command, ...args] = row.url.trim().split(/\s+/);
    return new StdioClientTransport({ command, args, stderr: 'ignore' });
  }
  const url = new URL(row.url);
  if (row.transport === 'sse') return new SSEClientTransport(url, { fetch });
  return new StreamableHTTPClientTransport(url, { fetch });
}

/** Maps what the SDK or the network threw into an UpstreamFailure (already-mapped ones pass). */
export function asUpstreamFailure(error: unknown, tooLarge: boolean): UpstreamFailure {
  if (tooLarge) return new UpstreamFailure('too_large', 'upstream answer larger than MCP_MAX_RESULT_BYTES');
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof StatelessRpcError) return new UpstreamFailure('failed', error.message);
  if (isEgressRefused(error)) return new UpstreamFailure('refused', 'address refused by the egress guard (FetchAllowPrivateNetworks is off)');
  const e = error as { code?: unknown; message?: string; name?: string };
  const message = e?.message ?? String(error);
  if (e?.code === -32001 || /timed? ?out/i.test(message) || e?.name === 'TimeoutError') return new UpstreamFailure('timeout', message);
  return new UpstreamFailure('failed', message);
}

/** Connects and initializes; the caller closes. Fails with an UpstreamFailure. */
/**
 * Connects to a server. `server/discover` (the stateless revision) is asked first on a refresh, and
 * on a call unless the last refresh negotiated a stateful revision: then the SDK path goes straight on.
 */
export async function connectUpstream(ctx: AppContext, row: McpServerRow, timeoutMs = row.timeout_ms, refresh = false): Promise<Upstream> {
  let tooLarge = false;
  let protocolVersion = '';
  let transport: Transport | undefined;
  const sdk = await clientSdk();
  const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
  try {
    // Checked on every call, not only when a pooled connection is opened: the guard may have been switched on since.
    if (row.transport !== 'stdio') await checkOutboundUrl(row.url);
    const creds = credentialsOf(ctx, row);
    if (creds.auth.type === 'oauth-client-credentials') await checkOutboundUrl(creds.auth.token_url);
    const headers = await credentialHeaders(creds, timeoutMs);
    const statefulBefore = row.protocol_version !== '' && row.protocol_version !== STATELESS_REVISION;
    if (row.transport === 'streamable-http' && (refresh || !statefulBefore)) {
      const stateless = await tryStateless(row.url, gatewayFetch(headers, ctx.config.MCP_MAX_RESULT_BYTES, () => (tooLarge = true)), timeoutMs);
      if (stateless) {
        return {
          client: stateless,
          protocolVersion: STATELESS_REVISION,
          get tooLarge() {
            return tooLarge;
          },
          close: () => stateless.close(),
        };
      }
      tooLarge = false;
    }
    transport = transportFor(ctx, row, gatewayFetch(headers, ctx.config.MCP_MAX_RESULT_BYTES, () => (tooLarge = true)), sdk);
    // The negotiated revision, as the SDK hands it to the transport after initialize.
    const set = transport.setProtocolVersion?.bind(transport);
    transport.setProtocolVersion = (v: string) => {
      protocolVersion = v;
      set?.(v);
    };
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw asUpstreamFailure(error, tooLarge);
  }
  return {
    client,
    protocolVersion,
    get tooLarge() {
      return tooLarge;
    },
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * Asks the upstream `server/discover` at 2026-07-28: the client when it offers that revision, undefined
 * when it does not (an error, a 4xx, another answer), so the SDK path is tried. A timeout, a refused
 * address and an oversized answer are not retried on the SDK path: they throw.
 */
async function tryStateless(url: string, fetch: FetchLike, timeoutMs: number): Promise<StatelessClient | undefined> {
  const client = new StatelessClient(url, fetch, CLIENT_INFO, timeoutMs);
  try {
    return (await client.discover()) ? client : undefined;
  } catch (error) {
    if (isEgressRefused(error)) throw error;
    if (error instanceof UpstreamFailure && error.kind !== 'failed') throw error;
    return undefined;
  }
}

export const failureStatus = (f: UpstreamFailure) => (f.kind === 'timeout' ? 504 : 502);

/** The generic text a caller is told (the upstream's own text is the admin's). */
export function callerMessage(f: UpstreamFailure, requestId: string): string {
  const reason = f.kind === 'too_large' ? 'upstream result too large' : f.kind === 'timeout' ? 'upstream timed out' : 'upstream error';
  return `${reason} (request id: ${requestId})`;
}

