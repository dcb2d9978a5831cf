import { connect as netConnect, isIP, Socket, type NetConnectOpts } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import { lazyRequire } from '../common/lazy-require.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { Agent, fetch as undiciFetch, Pool, ProxyAgent, request as undiciRequest, Socks5ProxyAgent, type buildConnector, type Dispatcher } from 'undici';
import { EgressRefused, guardConnector, guardedConnector, guardedLookup, isEgressRefused, refusesHost } from './guard.js';

/**
 * The one way out for every call to an outside party that is not the relay's pooled upstream
 * agent (flow/upstream.ts): OAuth and OIDC providers, SMTP, notify channels, Telegram, payment
 * gateways, price sync, Uptime Kuma, Turnstile, task result downloads, the realtime socket.
 * Every connection made here passes the egress guard (FetchAllowPrivateNetworks).
 * test/ops/egress-scan.test.ts fails when code outside egress/ connects on its own.
 */

/** Dispatchers whose connections pass the guard; fetch/request refuse any other. */
const guarded = new WeakSet<Dispatcher>();

function mark<T extends Dispatcher>(dispatcher: T): T {
  guarded.add(dispatcher);
  return dispatcher;
}

type AgentOptions = Omit<Agent.Options, 'connect'> & { connectTimeout?: number };

/** An undici Agent whose every new connection passes the guard. */
export function guardedAgent(options: AgentOptions = {}): Agent {
  const { connectTimeout, ...rest } = options;
  return mark(new Agent({ ...rest, connect: guardedConnector({ timeout: connectTimeout ?? 10_000 }) }));
}

/**
 * A proxy dispatcher (http(s):// CONNECT or socks5://) whose connection to the proxy passes the
 * guard (what the proxy reaches is its own network); undefined for any other scheme.
 */
export function guardedProxyAgent(url: string, options: Pick<Agent.Options, 'headersTimeout' | 'bodyTimeout'> = {}): Dispatcher | undefined {
  if (/^https?:\/\//i.test(url)) {
    // proxyTls.lookup checks the proxy's resolved name, the pool's connector its literal IP.
    return mark(new ProxyAgent({ uri: url, proxyTls: { lookup: guardedLookup }, clientFactory: guardedPool, ...options }));
  }
  if (/^socks5?:\/\//i.test(url)) return mark(new Socks5ProxyAgent(url, { connect: guardedConnector(), ...options }));
  return undefined;
}

function guardedPool(origin: URL, opts: object): Dispatcher {
  const { connect } = opts as { connect: buildConnector.connector };
  return new Pool(origin, { ...opts, connect: guardConnector(connect) });
}

const shared = guardedAgent();

function dispatcherOf(dispatcher: Dispatcher | undefined): Dispatcher {
  if (!dispatcher) return shared;
  if (!guarded.has(dispatcher)) throw new Error('egress: a dispatcher that bypasses the guard was passed');
  return dispatcher;
}

type FetchInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/** fetch's "fetch failed" hides the refusal in its cause; callers (and their logs) get the refusal itself. */
function plainRefusal(error: unknown): never {
  throw isEgressRefused(error) ? new EgressRefused() : error;
}

/** fetch() through the guard; a given dispatcher must come from this module. */
export function outboundFetch(url: string | URL, init: FetchInit = {}): ReturnType<typeof undiciFetch> {
  return undiciFetch(url, { ...init, dispatcher: dispatcherOf(init.dispatcher) }).catch(plainRefusal);
}

type RequestOptions = NonNullable<Parameters<typeof undiciRequest>[1]>;

/** undici's request() through the guard; a given dispatcher must come from this module. */
export function outboundRequest(url: string | URL, options: RequestOptions = {}): ReturnType<typeof undiciRequest> {
  return undiciRequest(url, { ...options, dispatcher: dispatcherOf(options.dispatcher) } as RequestOptions);
}

/** openid-client's customFetch (discovery, JWKS, token and userinfo calls). */
export const oidcFetch = (url: string, options: { method: string; headers: Record<string, string>; body?: unknown; redirect?: string; signal?: AbortSignal }): Promise<Response> =>
  outboundFetch(url, { method: options.method, headers: options.headers as never, body: options.body as never, redirect: options.redirect as never, signal: options.signal }) as unknown as Promise<Response>;

/** A socket that fails with the guard's refusal once a listener can hear it. */
function refusedSocket(): Socket {
  const socket = new Socket();
  process.nextTick(() => socket.destroy(new EgressRefused()));
  return socket;
}

/**
 * nodemailer's getSocket: the SMTP connection is opened here, through the guard; nodemailer
 * then speaks SMTP on it (and does STARTTLS or implicit TLS on it with the server name).
 */
function smtpSocket(options: SMTPTransport.Options, callback: (err: Error | null, socketOptions?: { connection: Socket }) => void): void {
  const host = options.host ?? 'localhost';
  if (refusesHost(host)) return callback(new EgressRefused());
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = netConnect({ host, port, lookup: guardedLookup as never });
  const fail = (error: Error) => {
    socket.destroy();
    callback(error);
  };
  socket.setTimeout(options.connectionTimeout ?? 10_000, () => fail(Object.assign(new Error('SMTP connection timed out'), { code: 'ETIMEDOUT' })));
  socket.once('error', fail);
  socket.once('connect', () => {
    socket.setTimeout(0);
    socket.removeListener('error', fail);
    callback(null, { connection: socket });
  });
}

const nodemailer = lazyRequire<typeof import('nodemailer')>('nodemailer');

/** A nodemailer SMTP transport whose connection passes the guard. */
export function smtpTransport(options: SMTPTransport.Options) {
  return nodemailer().createTransport({ ...options, getSocket: smtpSocket });
}

/** Options for a `ws` client: its connection (ws:// or wss://) passes the guard. */
export function guardedWebSocket(url: string): { createConnection: (options: object) => Duplex } {
  const secure = /^(wss|https):/i.test(url);
  return {
    createConnection: (options) => {
      const o = options as NetConnectOpts & ConnectionOptions & { host: string };
      if (refusesHost(o.host)) return refusedSocket();
      const lookup = guardedLookup as never;
      if (!secure) return netConnect({ ...o, path: undefined, lookup } as NetConnectOpts);
      return tlsConnect({ ...o, path: undefined, lookup, servername: o.servername ?? (isIP(o.host) ? '' : o.host) });
    },
  };
}

/**
 * True when an error is a failed connection (refused by the guard, unreachable, timed out)
 * rather than an answer: fetch's "fetch failed", socket and DNS errors, aborts and timeouts.
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e = error as { name?: string; code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    if (e.name === 'TypeError' && e.message === 'fetch failed') return true;
    if (typeof e.code === 'string' && /^(EGRESS_REFUSED|UND_ERR_|E[A-Z]+$)/.test(e.code)) return true;
  }
  return false;
}

/** An error's message with those of its causes ("something went wrong: address refused: …"), for admin logs. */
export function failureText(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as { message?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.message && !parts.includes(e.message)) parts.push(e.message);
  }
  return parts.join(': ') || String(error);
}
