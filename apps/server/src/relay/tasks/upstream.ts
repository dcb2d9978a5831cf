import { AsyncLocalStorage } from 'node:async_hooks';
import { outboundRequest as request } from '../../egress/outbound.js';
import { HubError } from '../../common/errors.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { dispatcherFor } from '../pipeline/flow/upstream.js';
import type { DoorSpan, SpanAttributes } from '../../telemetry/tracing.js';

export interface TaskAnswer {
  status: number;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
}

/** The channel's first key (task channels hold one). */
export const channelKey = (row: ChannelRow) => row.key.split('\n')[0].trim();

/** The channel's base URL without trailing slashes (task channels have no default host except Kling's). */
export const baseOf = (row: ChannelRow, fallback = '') => (row.base_url || fallback).replace(/\/+$/, '');

/** An upstream call made during a polling round, kept for the round's span (which is made after it). */
export interface RoundCall {
  attributes: SpanAttributes;
  startedAt: number;
  endedAt: number;
  /** A failure or an HTTP error status, as the span's `fail` takes it. */
  error?: unknown;
}

/** Set by the poller while a traced round runs: the calls it makes are collected here. */
export const roundCalls = new AsyncLocalStorage<RoundCall[]>();

/** One JSON call to a task upstream through the channel's proxy and the egress guard. */
export async function callTaskUpstream(
  row: ChannelRow,
  url: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: unknown; timeoutMs: number; span?: DoorSpan },
): Promise<TaskAnswer> {
  const attempt = init.span ? init.span.child({ name: init.method, kind: 'client', attributes: upstreamAttributes(row, url, init.method) }) : roundCall(row, url, init.method);
  // A raw body (multipart) goes as received, with its own content type.
  const raw = init.body as { bytes?: unknown; contentType?: string } | undefined;
  const isRaw = Buffer.isBuffer(raw?.bytes);
  const contentType = isRaw ? raw!.contentType! : 'application/json';
  try {
    const res = await request(url, {
      method: init.method,
      headers: init.body === undefined ? init.headers : { 'content-type': contentType, ...init.headers },
      body: init.body === undefined ? undefined : isRaw ? (raw!.bytes as Buffer) : JSON.stringify(init.body),
      dispatcher: dispatcherFor(row.proxy, channelKey(row)),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (attempt) {
      attempt.set({ 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 400) attempt.fail({ status: res.statusCode });
    }
    return { status: res.statusCode, text, json };
  } catch (error) {
    const failure = new HubError(502, `请求上游地址失败: ${(error as Error).message}`, { code: 'http_request_failed', type: 'upstream_error' });
    attempt?.fail(failure);
    throw failure;
  } finally {
    attempt?.end();
  }
}

/** A CLIENT span's attributes for one task upstream call: the host, never the path's ids or the key. */
function upstreamAttributes(row: ChannelRow, url: string, method: string): SpanAttributes {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { 'http.request.method': method, 'server.address': u.hostname, 'server.port': port, 'one-hub.channel.id': row.id };
}

/** Inside a traced polling round, a record of the call shaped like the span calls it makes (set, fail, end). */
function roundCall(row: ChannelRow, url: string, method: string): Pick<DoorSpan, 'set' | 'fail' | 'end'> | undefined {
  const calls = roundCalls.getStore();
  if (!calls) return undefined;
  const call: RoundCall = { attributes: upstreamAttributes(row, url, method), startedAt: Date.now(), endedAt: 0 };
  calls.push(call);
  return {
    set: (attributes) => Object.assign(call.attributes, attributes),
    fail: (error) => (call.error = error),
    end: () => (call.endedAt ||= Date.now()),
  };
}
