import { UpstreamFailure } from './upstream.js';

/**
 * The gateway as a client of an upstream that speaks the stateless 2026-07-28 revision: no
 * initialize, no Mcp-Session-Id. Every request is its own HTTP POST carrying the
 * `MCP-Protocol-Version` and `Mcp-Method` headers and, in `params._meta`, the revision, the client's
 * capabilities and its info; results carry `resultType` (only "complete" is accepted: the gateway
 * answers no input requests). The fetch given is the gateway's (egress guard, credentials, answer
 * capped at MCP_MAX_RESULT_BYTES); each request times out after `timeoutMs`.
 */

export const STATELESS_REVISION = '2026-07-28';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

interface RpcError {
  code?: unknown;
  message?: unknown;
}

/** A JSON-RPC error the upstream answered (its text is the admin's, never the caller's). */
export class StatelessRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface StatelessCapabilities {
  tools?: unknown;
  resources?: unknown;
  prompts?: unknown;
}

export class StatelessClient {
  private nextId = 1;
  private capabilities: StatelessCapabilities = {};

  constructor(
    private readonly url: string,
    private readonly fetch: FetchLike,
    private readonly clientInfo: { name: string; version: string },
    private readonly timeoutMs: number,
  ) {}

  /** One request; answers its result, or throws (StatelessRpcError, UpstreamFailure, network error). */
  async request(method: string, params: Record<string, unknown> = {}, timeoutMs = this.timeoutMs): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': this.clientInfo,
        },
      },
    };
    let res: Response;
    let text: string;
    try {
      res = await this.fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': STATELESS_REVISION, 'mcp-method': method },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      const e = error as { name?: string; cause?: unknown };
      if (e?.name === 'TimeoutError' || (e?.cause as { name?: string } | undefined)?.name === 'TimeoutError') throw new UpstreamFailure('timeout', `upstream did not answer ${method} within ${timeoutMs} ms`);
      if (error instanceof UpstreamFailure) throw error;
      const cause = (error as { cause?: unknown })?.cause;
      if (cause instanceof UpstreamFailure) throw cause;
      throw error;
    }
    const message = answerOf(res.headers.get('content-type') ?? '', text, id);
    if (!message) throw new UpstreamFailure('failed', `upstream answered HTTP ${res.status} to ${method} without a JSON-RPC response`);
    if (message.error) {
      const err = message.error as RpcError;
      throw new StatelessRpcError(typeof err.code === 'number' ? err.code : -32603, `MCP error ${String(err.code)}: ${String(err.message ?? '')}`);
    }
    if (res.status >= 400) throw new UpstreamFailure('failed', `upstream answered HTTP ${res.status} to ${method}`);
    const result = message.result;
    if (!result || typeof result !== 'object') throw new UpstreamFailure('failed', `upstream answered ${method} without a result object`);
    const r = result as Record<string, unknown>;
    if (r.resultType !== undefined && r.resultType !== 'complete') throw new UpstreamFailure('failed', `upstream answered ${method} with resultType ${String(r.resultType)}, which the gateway does not serve`);
    return r;
  }

  /** `server/discover`: true when the upstream offers 2026-07-28 (its capabilities are kept). */
  async discover(): Promise<boolean> {
    const result = await this.request('server/discover');
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (!versions.includes(STATELESS_REVISION)) return false;
    this.capabilities = result.capabilities && typeof result.capabilities === 'object' ? (result.capabilities as StatelessCapabilities) : {};
    return true;
  }

  getServerCapabilities(): StatelessCapabilities {
    return this.capabilities;
  }

  async listTools(params?: { cursor?: string }, opts?: { timeout?: number }) {
    const r = await this.request('tools/list', params?.cursor ? { cursor: params.cursor } : {}, opts?.timeout);
    const tools = (Array.isArray(r.tools) ? r.tools : []) as { name: string; description?: string; inputSchema: Record<string, unknown> }[];
    return { tools: tools.filter((t) => t && typeof t.name === 'string'), nextCursor: typeof r.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined };
  }

  async listResources(params?: { cursor?: string }, opts?: { timeout?: number }) {
    const r = await this.request('resources/list', params?.cursor ? { cursor: params.cursor } : {}, opts?.timeout);
    const resources = (Array.isArray(r.resources) ? r.resources : []) as { uri: string; name: string; description?: string; mimeType?: string }[];
    return { resources: resources.filter((x) => x && typeof x.uri === 'string'), nextCursor: typeof r.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined };
  }

  async listPrompts(params?: { cursor?: string }, opts?: { timeout?: number }) {
    const r = await this.request('prompts/list', params?.cursor ? { cursor: params.cursor } : {}, opts?.timeout);
    const prompts = (Array.isArray(r.prompts) ? r.prompts : []) as { name: string; description?: string }[];
    return { prompts: prompts.filter((x) => x && typeof x.name === 'string'), nextCursor: typeof r.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined };
  }

  /** tools/call; the result without `resultType` (the endpoint adds its own for its callers). */
  async callTool(params: { name: string; arguments?: Record<string, unknown> }, _resultSchema?: unknown, opts?: { timeout?: number }): Promise<Record<string, unknown>> {
    const { resultType: _drop, ...rest } = await this.request('tools/call', params, opts?.timeout);
    return rest;
  }

  async close(): Promise<void> {
    // Nothing is held between requests.
  }
}

/** The JSON-RPC response with `id` from a JSON body or an SSE stream. */
function answerOf(contentType: string, text: string, id: number): { result?: unknown; error?: unknown } | undefined {
  const candidates: unknown[] = [];
  if (contentType.includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) candidates.push(safeParse(data));
    }
  } else {
    candidates.push(safeParse(text));
  }
  for (const c of candidates) {
    const m = c as { id?: unknown; result?: unknown; error?: unknown } | undefined;
    if (m && typeof m === 'object' && (m.id === id || (m.error !== undefined && m.id === null)) && (m.result !== undefined || m.error !== undefined)) return m;
  }
  return undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
