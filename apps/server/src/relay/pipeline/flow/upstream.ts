import { request, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { HubError } from '../../../common/errors.js';
import type { UpstreamRequest } from '../../providers/types.js';
import { rawBodyOf } from './raw-body.js';
import type { FirstByteWatch } from './first-byte.js';
import { guardedAgent, guardedProxyAgent } from '../../../egress/outbound.js';

/**
 * One keep-alive pool for direct upstream traffic (undici pools per origin inside it).
 * No cap on connections per origin: a capped pool queues every caller's request behind
 * one caller's hundreds (head-of-line blocking); UserMaxInflight bounds each caller
 * instead, and FirstByteTimeoutSeconds bounds the wait.
 */
const direct = guardedAgent({
  keepAliveTimeout: 30_000,
  connections: null,
  headersTimeout: 300_000, // reasoning models may think for minutes before the first byte
  bodyTimeout: 120_000, // idle time between body chunks, not a total limit
  connectTimeout: 5_000, // refuses private addresses (FetchAllowPrivateNetworks), per new connection
});
const proxies = new Map<string, Dispatcher>();
const MAX_PROXY_AGENTS = 256;
const PROXY_TIMEOUTS = { headersTimeout: 300_000, bodyTimeout: 120_000 };

/**
 * The dispatcher for a channel's proxy setting: none → the shared pool;
 * http(s):// → CONNECT tunnel; socks5:// (or socks://) → SOCKS5, with user:pass
 * when given. `%s` in the URL is replaced by the channel key (per-key proxies).
 */
export function dispatcherFor(proxy: string | null | undefined, key: string): Dispatcher {
  if (!proxy?.trim()) return direct;
  const url = proxy.trim().replace('%s', key);
  let agent = proxies.get(url);
  if (agent) return agent;
  // The connection to the proxy itself passes the egress guard (what the proxy reaches is its own network).
  agent = guardedProxyAgent(url, PROXY_TIMEOUTS);
  if (!agent) throw new HubError(503, 'channel proxy must be an http://, https:// or socks5:// URL', { code: 'channel_misconfigured', retryable: true });
  if (proxies.size >= MAX_PROXY_AGENTS) {
    const [oldestUrl, oldest] = proxies.entries().next().value!;
    proxies.delete(oldestUrl);
    void oldest.close();
  }
  proxies.set(url, agent);
  return agent;
}

/** A complete upstream answer held in memory. */
export interface BufferedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Largest non-stream answer accepted from upstream. */
export const MAX_BUFFERED_BODY = 256 * 1024 * 1024;

function bodyText(req: UpstreamRequest): string | Buffer | undefined {
  if (req.body === undefined) return undefined;
  if (req.raw) return req.body as Buffer;
  return rawBodyOf(req.body as object) ?? JSON.stringify(req.body); // unchanged bodies go out as received
}

/** The message for an upstream body that went silent longer than its idle timeout (undici's body timeout). */
export function idleMessage(error: unknown, idleSeconds: number): string | undefined {
  return (error as { code?: string } | null)?.code === 'UND_ERR_BODY_TIMEOUT' ? `upstream sent nothing for ${idleSeconds} s (StreamIdleTimeoutSeconds)` : undefined;
}

const requestFailed = (error: Error) =>
  new HubError(502, `请求上游地址失败: ${error.message}`, { code: 'http_request_failed', type: 'upstream_error', retryable: true });

const MAX_PARSED_URLS = 1024;
const parsedUrls = new Map<string, { origin: string; path: string }>();

/** Origin and path of an upstream URL; a channel sends to the same few URLs, so each is parsed once. */
function splitUrl(text: string): { origin: string; path: string } {
  let parts = parsedUrls.get(text);
  if (!parts) {
    const url = new URL(text);
    parts = { origin: url.origin, path: url.pathname + url.search };
    if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
    parsedUrls.set(text, parts);
  }
  return parts;
}

/** What a dispatched request tells its sender; `failed` comes before the status line, `broke` after it. */
interface AnswerHandler {
  failed(error: HubError): void;
  started(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void;
  data(controller: Dispatcher.DispatchController, chunk: Buffer): void;
  ended(): void;
  broke(error: Error): void;
}

interface DispatchOptions {
  method?: 'GET' | 'POST';
  proxy?: string | null;
  proxyKey?: string;
  /** Cancels the request until its first body byte (timeout or client gone). */
  watch?: FirstByteWatch;
  /** Bounds the silence between body chunks (0 = none), never the whole answer. */
  idleTimeoutMs?: number;
}

/**
 * Sends a request through undici's dispatch handler: no body stream and no promise per chunk
 * in between (both are measurable per request). A request still queued for a connection when
 * the watch cancels it fails at once and is aborted when it starts.
 */
function dispatchUpstream(req: UpstreamRequest, opts: DispatchOptions, handler: AnswerHandler): void {
  const body = bodyText(req);
  const url = splitUrl(req.url);
  const watch = opts.watch;
  let controller: Dispatcher.DispatchController | undefined;
  let answered = false;
  watch?.onCancel((reason) => {
    handler.failed(reason);
    controller?.abort(reason);
  });
  if (watch?.reason) return;
  try {
    dispatcherFor(opts.proxy, opts.proxyKey ?? '').dispatch(
      {
        origin: url.origin,
        path: url.path,
        method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: req.headers,
        body,
        ...(opts.idleTimeoutMs !== undefined ? { bodyTimeout: opts.idleTimeoutMs } : {}),
      },
      {
        onRequestStart(c) {
          controller = c;
          if (watch?.reason) c.abort(watch.reason);
        },
        onResponseStart(c, status, headers) {
          answered = true;
          handler.started(c, status, headers);
        },
        onResponseData: (c, chunk) => handler.data(c, chunk),
        onResponseEnd: () => handler.ended(),
        onResponseError(_c, error) {
          if (answered) handler.broke(error);
          else handler.failed(error instanceof HubError ? error : requestFailed(error));
        },
      },
    );
  } catch (error) {
    handler.failed(error instanceof HubError ? error : requestFailed(error as Error));
  }
}

/** Sends a request and collects the whole answer (the common non-stream path). */
export function sendUpstreamBuffered(req: UpstreamRequest, opts: Omit<DispatchOptions, 'idleTimeoutMs'>): Promise<BufferedResponse> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    dispatchUpstream(req, opts, {
      failed: reject,
      started(_c, status, h) {
        statusCode = status;
        headers = h;
      },
      data(c, chunk) {
        if (size === 0) opts.watch?.stop();
        size += chunk.length;
        if (size > MAX_BUFFERED_BODY) {
          reject(new HubError(502, 'upstream answer too large'));
          return c.abort(new Error('upstream answer too large'));
        }
        chunks.push(chunk);
      },
      ended() {
        opts.watch?.stop();
        resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
      },
      // An answer that broke off after its status line is not retried: the upstream may have done the work.
      broke: (error) => reject(new HubError(502, `upstream answer broke off: ${error.message}`, { retryable: false })),
    });
  });
}

/** `idleTimeoutMs` bounds the silence between body chunks (0 = none), never the whole answer: long streams live on. */
export async function sendUpstream(
  req: UpstreamRequest,
  opts: { method?: 'GET' | 'POST' | 'DELETE'; proxy?: string | null; proxyKey?: string; signal?: AbortSignal; idleTimeoutMs?: number },
): Promise<Dispatcher.ResponseData> {
  const body = bodyText(req);
  try {
    return await request(req.url, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: req.headers,
      body,
      dispatcher: dispatcherFor(opts.proxy, opts.proxyKey ?? ''),
      signal: opts.signal,
      ...(opts.idleTimeoutMs !== undefined ? { bodyTimeout: opts.idleTimeoutMs } : {}),
    });
  } catch (error) {
    if (opts.signal?.aborted) {
      const reason: unknown = opts.signal.reason;
      throw reason instanceof HubError ? reason : new HubError(499, 'client closed the request', { code: 'client_closed' });
    }
    throw requestFailed(error as Error);
  }
}

/** What the reader of a streamed answer is told, chunk by chunk. */
export interface StreamSink {
  data(chunk: Buffer): void;
  end(): void;
  error(error: Error): void;
}

/**
 * A streamed upstream answer read through callbacks: no body stream and no promise per
 * chunk in between (both are measurable per request). Chunks that arrive before a reader
 * attaches wait, with upstream paused.
 */
export class UpstreamStream {
  statusCode = 0;
  headers: IncomingHttpHeaders = {};
  controller: Dispatcher.DispatchController | undefined;
  private waiting: Buffer[] = [];
  private outcome: { error?: Error } | undefined;
  private sink: StreamSink | undefined;

  receive(chunk: Buffer): void {
    if (this.sink) return this.sink.data(chunk);
    this.waiting.push(chunk);
    this.controller?.pause();
  }

  finish(error?: Error): void {
    if (this.outcome) return;
    this.outcome = { error };
    if (this.sink) this.tellEnd(this.sink);
  }

  /** Starts delivering to `sink`: what already arrived first, then each chunk as it comes. */
  attach(sink: StreamSink): void {
    this.sink = sink;
    const waiting = this.waiting;
    this.waiting = [];
    for (const chunk of waiting) sink.data(chunk);
    if (this.outcome) this.tellEnd(sink);
    else this.controller?.resume();
  }

  pause(): void {
    this.controller?.pause();
  }

  resume(): void {
    this.controller?.resume();
  }

  /** Stops reading; the reader is told through `error` unless the answer already ended. */
  destroy(reason: Error = new Error('upstream stream closed')): void {
    if (this.outcome) return;
    if (this.controller) this.controller.abort(reason);
    else this.finish(reason);
  }

  /** The whole body (bounded), for an error status or a plain answer to a stream request. */
  whole(): Promise<BufferedResponse> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      this.attach({
        data: (chunk) => {
          size += chunk.length;
          if (size <= MAX_BUFFERED_BODY) return void chunks.push(chunk);
          reject(new HubError(502, 'upstream answer too large'));
          this.destroy();
        },
        end: () => resolve({ statusCode: this.statusCode, headers: this.headers, body: Buffer.concat(chunks, size) }),
        error: (error) => reject(new HubError(502, `upstream answer broke off: ${error.message}`, { retryable: false })),
      });
    });
  }

  async text(): Promise<string> {
    return (await this.whole()).body.toString('utf8');
  }

  private tellEnd(sink: StreamSink): void {
    const error = this.outcome!.error;
    if (error) sink.error(error);
    else sink.end();
  }
}

/**
 * Sends a stream request; resolves once upstream's status line and headers arrived. `watch`
 * cancels the request until its first body byte (the reader stops it then); after the headers
 * its reason reaches the reader's `error`.
 */
export function sendUpstreamStream(req: UpstreamRequest, opts: Omit<DispatchOptions, 'method'>): Promise<UpstreamStream> {
  const stream = new UpstreamStream();
  return new Promise((resolve, reject) => {
    dispatchUpstream(req, opts, {
      failed: reject,
      started(c, status, headers) {
        stream.controller = c;
        stream.statusCode = status;
        stream.headers = headers;
        resolve(stream);
      },
      data: (_c, chunk) => stream.receive(chunk),
      ended: () => stream.finish(),
      broke: (error) => stream.finish(error),
    });
  });
}
