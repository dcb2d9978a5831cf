import { outboundRequest as request } from '../../egress/outbound.js';
import { HubError } from '../../common/errors.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { dispatcherFor } from '../pipeline/flow/upstream.js';
import type { DoorSpan } from '../../telemetry/tracing.js';

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

/** One JSON call to a task upstream through the channel's proxy and the egress guard. */
export async function callTaskUpstream(
  row: ChannelRow,
  url: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: unknown; timeoutMs: number; span?: DoorSpan },
): Promise<TaskAnswer> {
  const attempt = init.span && upstreamSpan(init.span, row, url, init.method);
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

/** A CLIENT span of one task upstream call under the request's span: the host, never the path's ids or the key. */
function upstreamSpan(parent: DoorSpan, row: ChannelRow, url: string, method: string): DoorSpan {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return parent.child({ name: method, kind: 'client', attributes: { 'http.request.method': method, 'server.address': u.hostname, 'server.port': port, 'one-hub.channel.id': row.id } });
}
