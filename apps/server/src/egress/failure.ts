import { ROLE } from '@one-hub/contract';
import { HubError } from '../common/errors.js';
import type { ChannelRow } from '../db/repos/channels.js';
import { defaultBaseUrl } from '../relay/providers/index.js';
import { classifyFailure, type Verdict } from '../relay/pipeline/routing/failure.js';
import { HIDDEN_HOST, scrubText, secretsOf } from './scrub.js';

/**
 * The one mapping of an outside party's failure into what a caller is told (architecture.md
 * "Boundaries every door passes"): a non-admin gets the status class, a generic reason and the
 * request id (the door appends it in its own shape); the scrubbed upstream text goes to admins.
 */

/** What identifies a channel upstream: every configured key, and its base URL's host and port. */
interface Identity {
  keys: string[];
  hosts: string[];
  port?: RegExp;
}
const identities = new WeakMap<ChannelRow, Identity>();

/** Computed once per channel row (rows are replaced, not mutated, when a channel changes). */
function identityOf(row: ChannelRow): Identity {
  let id = identities.get(row);
  if (id) return id;
  const hosts = new Set<string>();
  let port: RegExp | undefined;
  try {
    const url = new URL(row.base_url || defaultBaseUrl(row.type));
    for (const h of [url.origin, url.host, url.hostname, url.hostname.replace(/^\[|\]$/g, '')]) if (h) hosts.add(h);
    if (url.port) port = new RegExp(`\\b${url.port}\\b`, 'g');
  } catch {
    // no parsable base URL: the general host scrubbing still applies
  }
  id = { keys: secretsOf(row.key), hosts: [...hosts].sort((a, b) => b.length - a.length), port };
  identities.set(row, id);
  return id;
}

/**
 * An upstream text for a viewer: the channel's keys (each line, each `|` part) and anything
 * key-shaped always removed; for non-admins also every URL, host, address and port, the
 * channel's own base URL host and port included even where they appear bare.
 */
export function scrubIdentity(text: string, row: ChannelRow | undefined, admin: boolean): string {
  if (!row) return scrubText(text, [], admin);
  const id = identityOf(row);
  let out = scrubText(text, id.keys, admin);
  if (admin) return out;
  for (const host of id.hosts) out = out.split(host).join(HIDDEN_HOST);
  return id.port ? out.replace(id.port, '[port]') : out;
}

/**
 * An upstream error event inside a stream, for the caller: admins get it scrubbed of keys; anyone
 * else gets the same JSON (so the door's mapper still reads its shape) with every `message`
 * replaced by the generic reason and the request id.
 */
export function streamErrorData(data: string, row: ChannelRow, admin: boolean, requestId: string): string {
  if (admin) return scrubIdentity(data, row, true);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return JSON.stringify({ error: { message: withRequestId(GENERIC_STREAM_ERROR, requestId), type: 'upstream_error' } });
  }
  return JSON.stringify(genericMessages(parsed, withRequestId(GENERIC_STREAM_ERROR, requestId)));
}

const GENERIC_STREAM_ERROR = 'upstream error';

function genericMessages(value: unknown, message: string): unknown {
  if (Array.isArray(value)) return value.map((v) => genericMessages(v, message));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === 'message' && typeof v === 'string' ? message : typeof v === 'string' ? v : genericMessages(v, message)]),
  );
}

/** Every string of a JSON value scrubbed as scrubIdentity does (an upstream's view of a failed task). */
export function scrubDeep(value: unknown, row: ChannelRow | undefined, admin: boolean): unknown {
  if (typeof value === 'string') return scrubIdentity(value, row, admin);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, row, admin));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, row, admin)]));
  return value;
}

export const isAdmin = (role: number) => role >= ROLE.admin;

/** A door's message with the request id a caller quotes to support. */
export const withRequestId = (message: string, requestId: string) => `${message} (request id: ${requestId})`;

/**
 * The error a caller gets for a failed attempt (issue 20.3). The caller's own 4xx keeps its
 * status and its message, scrubbed: it is about the request. Everything else is about the
 * channel, so it becomes the status class and a generic reason; an upstream 401/402/quota
 * error is an outage for the caller (503), never a statement about the caller's key.
 * Admins see the upstream text behind the reason, with the keys removed.
 */
export function callerError(hub: HubError, verdict: Verdict, row: ChannelRow | undefined, admin: boolean): HubError {
  if (hub.code === 'client_closed') return hub;
  const detail = scrubIdentity(hub.message, row, admin);
  if (GATEWAY_WORDED.has(hub.code ?? '')) return new HubError(hub.status, detail, { type: hub.type, code: hub.code, retryable: hub.retryable });
  if (!verdict.retry && !verdict.channelFault && hub.status >= 400 && hub.status < 500) {
    return new HubError(hub.status, detail, { type: hub.type, code: hub.code });
  }
  const [status, code, reason] = generic(hub, verdict);
  return new HubError(status, admin ? `${reason}: ${detail}` : reason, { type: 'upstream_error', code, retryable: verdict.retry });
}

/** The same mapping for doors without a failover loop of their own (tasks, realtime, proxies). */
export const outsideFailure = (hub: HubError, row: ChannelRow | undefined, admin: boolean) => callerError(hub, classifyFailure(hub, []), row, admin);

/** Errors the gateway words itself (no upstream text in them): the caller sees them as they are. */
const GATEWAY_WORDED = new Set(['first_byte_timeout', 'channel_misconfigured', 'cannot_compact', 'cannot_interact']);

function generic(hub: HubError, verdict: Verdict): [number, string, string] {
  if (verdict.channelFault) return [503, 'upstream_unavailable', 'upstream service unavailable, please try again later'];
  if (hub.status === 429) return [429, 'upstream_rate_limited', 'upstream is busy, please retry later'];
  if (hub.status === 504 || hub.status === 408) return [504, 'upstream_timeout', 'upstream timed out'];
  if (hub.code === 'http_request_failed') return [502, 'upstream_unreachable', 'upstream could not be reached'];
  if (hub.code === 'broken_answer') return [502, 'upstream_broken_answer', 'upstream sent a broken answer'];
  if (hub.status === 503 || hub.status === 529) return [503, 'upstream_unavailable', 'upstream service unavailable, please try again later'];
  return [502, 'upstream_error', 'upstream error'];
}

/** A connection that failed before any answer (refused, reset, DNS, TLS, egress guard). */
export function unreachable(error: unknown): HubError {
  if (error instanceof HubError) return error;
  return new HubError(502, `请求上游地址失败: ${(error as Error)?.message ?? String(error)}`, { code: 'http_request_failed', type: 'upstream_error', retryable: true });
}

/** The message an upstream error body carries in any of the shapes task upstreams use. */
function messageOf(json: any): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  for (const m of [json.error?.message, json.message, json.description, json.detail, json.error, json.msg]) if (typeof m === 'string' && m) return m;
  return undefined;
}

/**
 * An upstream answer the door cannot accept, as an error to map: a non-2xx keeps its status
 * and the message its body carries; a 2xx in a foreign shape is a broken answer (502).
 */
export function answerError(status: number, text: string, json: unknown): HubError {
  const ok = status >= 200 && status < 300;
  const message = messageOf(json) ?? (text.trim().slice(0, 1000) || `upstream status ${status}`);
  const code = ok ? 'broken_answer' : typeof (json as any)?.error?.code === 'string' ? (json as any).error.code : null;
  return new HubError(ok ? 502 : status, message, { type: ok ? 'upstream_error' : String((json as any)?.error?.type ?? 'upstream_error'), code, upstream: text.slice(0, 2000) });
}

/** What an admin reads of a failure in the log: status, message and raw body, keys removed, hosts kept. */
export function adminText(hub: HubError, row: ChannelRow | undefined): string {
  const upstream = typeof hub.upstream === 'string' && hub.upstream && hub.upstream !== hub.message ? `\n${hub.upstream}` : '';
  return scrubIdentity(`${hub.status} ${hub.message}${upstream}`, row, true).slice(0, 4000);
}

/** A realtime `error` event's `error` object, as upstream sent it. */
export interface RealtimeErrorBody {
  type?: unknown;
  code?: unknown;
  message?: unknown;
  param?: unknown;
  event_id?: unknown;
}

/**
 * An upstream realtime `error` event as the client receives it: an `invalid_request_error` is
 * about the client's own event and keeps its message, scrubbed; any other becomes a generic
 * server error. Either way the request id is appended and the rest of the event kept.
 */
export function realtimeError(error: RealtimeErrorBody, row: ChannelRow, admin: boolean, requestId: string): RealtimeErrorBody {
  const own = error.type === 'invalid_request_error';
  const code = typeof error.code === 'string' ? error.code : null;
  const hub = new HubError(own ? 400 : 502, typeof error.message === 'string' ? error.message : 'upstream error', { type: String(error.type ?? 'server_error'), code });
  const told = outsideFailure(hub, row, admin);
  const message = withRequestId(told.message, requestId);
  return own ? { ...error, message } : { ...error, type: 'server_error', code: told.code, message };
}
