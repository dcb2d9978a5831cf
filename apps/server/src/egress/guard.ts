import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { buildConnector } from 'undici';
import { isPrivateAddress } from './address.js';

/**
 * One egress guard for every server-side connection to an outside party (channel base URLs
 * and proxies, the relay included; every non-relay caller goes through ./outbound.ts).
 * The check runs when a connection is opened, after DNS resolution, on the address the
 * socket then connects to, so a hostname that resolves (or rebinds) to 127.0.0.1 is refused.
 * Pooled keep-alive connections are not re-checked, so the relay pays nothing per request.
 *
 * The switch is process-wide: it follows option FetchAllowPrivateNetworks (set in bootstrap).
 */
let allowPrivate = false;

export function setPrivateNetworksAllowed(allowed: boolean): void {
  allowPrivate = allowed;
}

export const REFUSED_MESSAGE = 'address refused: private or local network (FetchAllowPrivateNetworks is off)';

export class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
  constructor() {
    super(REFUSED_MESSAGE);
  }
}

/** True when the guard refuses a literal IP host (a name is checked once resolved, by guardedLookup). */
export function refusesHost(host: string): boolean {
  return !allowPrivate && isPrivateAddress(host);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup for net/tls.connect that refuses when any resolved address is private. */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) return callback(new EgressRefused(), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    callback(null, first.address, first.family);
  });
}

type Connector = buildConnector.connector;

/** Wraps an undici connector: literal IP hosts are checked here (net.connect skips the lookup for them). */
export function guardConnector(inner: Connector): Connector {
  return (opts, callback) => {
    if (refusesHost(opts.hostname)) {
      callback(new EgressRefused(), null);
      return;
    }
    inner(opts, callback);
  };
}

/** An undici connector with both checks. */
export const guardedConnector = (options: buildConnector.BuildOptions = {}): Connector =>
  guardConnector(buildConnector({ ...options, lookup: guardedLookup } as buildConnector.BuildOptions));

/** True when an error (or its cause) is the guard's refusal. */
export function isEgressRefused(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === 'EGRESS_REFUSED') return true;
  }
  return false;
}

/**
 * Checks a URL an admin saves (an MCP server's): http(s) only, and its host, literal or resolved,
 * must pass the guard. Connections are checked again when opened (the name may rebind later).
 */
export async function checkOutboundUrl(raw: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw Object.assign(new Error('not a valid URL'), { code: 'BAD_URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw Object.assign(new Error('only http:// and https:// URLs are allowed'), { code: 'BAD_URL' });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (refusesHost(host)) throw new EgressRefused();
  if (allowPrivate) return;
  await new Promise<void>((resolve, reject) =>
    guardedLookup(host, { all: true }, (err) => (err ? reject(err) : resolve())),
  );
}
