import { ROLE } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { defaultBaseUrl } from '../../providers/index.js';
import { scrubSecrets } from '../../providers/openai-compatible/index.js';
import type { Verdict } from '../routing/failure.js';

/** What identifies a channel upstream: every configured key and its base URL's host, IP and port. */
interface Identity {
  keys: string[];
  hosts: string[];
  port?: RegExp;
}
const identities = new WeakMap<ChannelRow, Identity>();
/** Key parts shorter than this are not secrets worth a search (and would mangle ordinary words). */
const MIN_SECRET = 4;

/** Computed once per channel row (rows are replaced, not mutated, when a channel changes). */
export function identityOf(row: ChannelRow): Identity {
  let id = identities.get(row);
  if (id) return id;
  const keys = new Set<string>();
  for (const line of row.key.split('\n')) {
    const whole = line.trim();
    if (whole.length >= MIN_SECRET) keys.add(whole);
    for (const part of whole.split('|')) if (part.trim().length >= MIN_SECRET) keys.add(part.trim());
  }
  const hosts = new Set<string>();
  let port: RegExp | undefined;
  try {
    const url = new URL(row.base_url || defaultBaseUrl(row.type));
    hosts.add(url.origin);
    hosts.add(url.host);
    hosts.add(url.hostname);
    hosts.add(url.hostname.replace(/^\[|\]$/g, ''));
    if (url.port) port = new RegExp(`\\b${url.port}\\b`, 'g');
  } catch {
    // no parsable base URL: nothing to remove
  }
  const longestFirst = (a: string, b: string) => b.length - a.length;
  id = { keys: [...keys].sort(longestFirst), hosts: [...hosts].filter(Boolean).sort(longestFirst), port };
  identities.set(row, id);
  return id;
}

const URLS = /\b(?:https?|wss?):\/\/[^\s"'<>)]+/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6 = /\[[0-9a-f:]*:[0-9a-f:]*\](?::\d+)?/gi;

/** Removes the channel's keys, and for non-admins also every host, address and URL, from a text. */
export function scrubIdentity(text: string, row: ChannelRow, admin: boolean): string {
  const id = identityOf(row);
  let out = scrubSecrets(text);
  for (const key of id.keys) out = out.split(key).join('***');
  if (admin) return out;
  for (const host of id.hosts) out = out.split(host).join('[upstream]');
  if (id.port) out = out.replace(id.port, '[port]');
  return out.replace(URLS, '[upstream]').replace(IPV4, '[upstream]').replace(IPV6, '[upstream]');
}

export const isAdmin = (role: number) => role >= ROLE.admin;

/**
 * The error a caller gets for a failed attempt (issue 20.3). The caller's own 4xx keeps its
 * status and its message, scrubbed: it is about the request. Everything else is about the
 * channel, so it becomes the status class and a generic reason; an upstream 401/402/quota
 * error is an outage for the caller (503), never a statement about the caller's key.
 * Admins see the upstream text behind the reason, with the keys removed.
 */
export function callerError(hub: HubError, verdict: Verdict, row: ChannelRow, admin: boolean): HubError {
  if (hub.code === 'client_closed') return hub;
  const detail = scrubIdentity(hub.message, row, admin);
  if (GATEWAY_WORDED.has(hub.code ?? '')) return new HubError(hub.status, detail, { type: hub.type, code: hub.code, retryable: hub.retryable });
  if (!verdict.retry && !verdict.channelFault && hub.status >= 400 && hub.status < 500) {
    return new HubError(hub.status, detail, { type: hub.type, code: hub.code });
  }
  const [status, code, reason] = generic(hub, verdict);
  return new HubError(status, admin ? `${reason}: ${detail}` : reason, { type: 'upstream_error', code, retryable: verdict.retry });
}

/** Errors the gateway words itself (no upstream text in them): the caller sees them as they are. */
const GATEWAY_WORDED = new Set(['first_byte_timeout', 'channel_misconfigured', 'cannot_compact']);

function generic(hub: HubError, verdict: Verdict): [number, string, string] {
  if (verdict.channelFault) return [503, 'upstream_unavailable', 'upstream service unavailable, please try again later'];
  if (hub.status === 429) return [429, 'upstream_rate_limited', 'upstream is busy, please retry later'];
  if (hub.status === 504 || hub.status === 408) return [504, 'upstream_timeout', 'upstream timed out'];
  if (hub.code === 'http_request_failed') return [502, 'upstream_unreachable', 'upstream could not be reached'];
  if (hub.code === 'broken_answer') return [502, 'upstream_broken_answer', 'upstream sent a broken answer'];
  if (hub.status === 503 || hub.status === 529) return [503, 'upstream_unavailable', 'upstream service unavailable, please try again later'];
  return [502, 'upstream_error', 'upstream error'];
}
