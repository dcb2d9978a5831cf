import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { UpgradeHandler } from '../upgrade.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { CHANNEL_STATUS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { guardedWebSocket } from '../../egress/outbound.js';
import { randomAlnum } from '../../common/random.js';
import { toHubError } from '../../http/errors.js';
import { findChannelById, type ChannelRow } from '../../db/repos/channels.js';
import { AZURE_DEFAULT_VERSION } from '../providers/openai-family/urls.js';
import { authenticate, checkModelAllowed, type Caller } from '../pipeline/flow/caller.js';
import { checkRate } from '../pipeline/flow/prepare.js';
import { limitScopes } from '../pipeline/accounting/limits.js';
import { routeTo, type RoutedChannel } from '../pipeline/flow/attempt.js';
import { noChannel } from '../pipeline/routing/failure.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { relayState } from '../state.js';
import { answerError, isAdmin, outsideFailure, unreachable } from '../../egress/failure.js';
import { parseJsonOr } from '../../common/json.js';
import { planHasRoom, runSession } from './session.js';
import { requestLogFields } from '../pipeline/accounting/settle.js';
import { writeFailureRow } from '../pipeline/flow/failure-log.js';
import { RealtimeTrace } from './trace.js';

const KEY_PROTOCOL = 'openai-insecure-api-key.';
const AZURE = 3;
const CONNECT_TIMEOUT_MS = 15_000;

/** The caller's key from `Authorization`, or (browsers) from a `Sec-WebSocket-Protocol` entry. */
function withProtocolKey(req: IncomingMessage): IncomingMessage['headers'] {
  if (req.headers.authorization) return req.headers;
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const key = offered.find((p) => p.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
  return key ? { ...req.headers, authorization: `Bearer ${key}` } : req.headers;
}

/** The upstream realtime URL and credentials (OpenAI's `/v1/realtime`, Azure's `/openai/realtime`). */
function upstreamOf(route: RoutedChannel): { url: string; headers: Record<string, string> } {
  const base = route.target.baseUrl.replace(/^http/, 'ws');
  const model = encodeURIComponent(route.upstreamModel);
  if (route.row.type === AZURE) {
    const version = route.target.other.trim() || AZURE_DEFAULT_VERSION;
    return { url: `${base}/openai/realtime?api-version=${encodeURIComponent(version)}&deployment=${model}`, headers: { 'api-key': route.target.key } };
  }
  return { url: `${base}/v1/realtime?model=${model}`, headers: { authorization: `Bearer ${route.target.key}` } };
}

function connect(url: string, headers: Record<string, string>, protocols: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers, handshakeTimeout: CONNECT_TIMEOUT_MS, ...guardedWebSocket(url) });
    ws.once('open', () => {
      ws.pause(); // hold upstream events (session.created) until the session pipes them
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(answerError(res.statusCode === 101 ? 502 : (res.statusCode ?? 502), body, parseJsonOr<unknown>(body, undefined))));
    });
    ws.once('error', (error) => reject(unreachable(error)));
  });
}

async function pickChannel(state: RelayState, caller: Caller, group: string, model: string, tried: Set<number>): Promise<ChannelRow | undefined> {
  if (caller.pinnedChannel) {
    if (tried.has(caller.pinnedChannel)) return undefined;
    const row = await findChannelById(state.ctx.db, caller.pinnedChannel);
    if (!row) throw new HubError(503, '无效的渠道 Id', { type: 'one_hub_error' });
    if (row.status !== CHANNEL_STATUS.enabled) throw new HubError(503, '该渠道已被禁用', { type: 'one_hub_error' });
    return row;
  }
  return state.selector.select(group, model, { exclude: tried, stream: true, hasTools: false })?.row;
}

/** Authenticates, picks a channel and opens the upstream socket (failing over like other relays). */
/** The model a handshake asks for: `?model=`, or Azure's `?deployment=` (a `#` fragment cut off). */
const modelAsked = (req: IncomingMessage) => {
  const url = new URL(req.url ?? '/', 'http://x');
  return (url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? '').split('#')[0].trim();
};

async function open(state: RelayState, req: IncomingMessage, model: string, protocols: string[], requestId: string, startedAt: number) {
  const fake = { headers: withProtocolKey(req), query: {}, ip: req.socket.remoteAddress ?? '' } as unknown as FastifyRequest;
  const caller = await authenticate(state.ctx, state.callers, fake);
  if (!model) throw new HubError(400, 'query parameter model is required', { code: 'invalid_parameter' });
  checkModelAllowed(caller, model);
  const group = caller.token.group || caller.token.backup_group || caller.user.group;
  const groupRow = state.groups.get(group);
  if (!groupRow) throw new HubError(403, `分组 ${group} 不存在`, { type: 'one_hub_error', code: 'group_not_found' });
  await checkRate(state, caller.user.id, groupRow.api_rate);
  // A plan with room pays the responses (a spent window without fall-back is refused here with its 429); else the balance must have some left.
  const onPlan = await planHasRoom(state, { caller, group, model });
  if (!onPlan) {
    const { user, token } = caller;
    const limited = token.unlimited_quota !== 1;
    if ((await state.leases.available(user.id, token.id, false)) <= 0) throw new HubError(402, '用户额度不足', { type: 'insufficient_quota' });
    if (limited && (await state.leases.available(user.id, token.id, true)) <= 0) throw new HubError(403, '令牌额度不足', { type: 'insufficient_quota' });
  }

  // Opening counts as one request (RPM) and holds an in-flight slot (and one of UserMaxInflight on this node) until the session ends.
  state.inflight.enter(caller.user.id, state.ctx.options.get('UserMaxInflight'));
  try {
    const scopes = limitScopes({ id: caller.token.id, limits: caller.setting.limits.request_limits }, { id: caller.user.id, limits: caller.userLimits }, group, model, state.groups.limitsOf(group));
    const limits = scopes.length ? await state.limits.enter(scopes) : undefined;
    try {
      const facts: Handshake = { caller, group, model, startedAt, requestId, ip: fake.ip };
      const channel = await openUpstream(state, req, protocols, facts);
      return { ...channel, caller, group, model, groupRatio: Number(groupRow.ratio), limits };
    } catch (error) {
      if (limits) await state.limits.leave(limits);
      throw error;
    }
  } catch (error) {
    state.inflight.leave(caller.user.id);
    throw error;
  }
}

/** What the error row of a failed handshake names. */
interface Handshake {
  caller: Caller;
  group: string;
  model: string;
  startedAt: number;
  requestId: string;
  ip: string;
}

/** Picks a channel and connects to it, failing over like other relays; each refused attempt gets its error row, as on the HTTP doors. */
async function openUpstream(state: RelayState, req: IncomingMessage, protocols: string[], h: Handshake) {
  const { caller, group, model } = h;
  const tried = new Set<number>();
  if (caller.excludedChannel) tried.add(caller.excludedChannel);
  const attempts = caller.pinnedChannel ? 1 : 1 + Math.max(0, state.ctx.options.get('RetryTimes'));
  const admin = isAdmin(caller.user.role);
  let last: HubError | undefined;
  for (let i = 0; i < attempts; i++) {
    const row = await pickChannel(state, caller, group, model, tried);
    if (!row) break;
    tried.add(row.id);
    try {
      const route = routeTo(row, model);
      const target = upstreamOf(route);
      const beta = req.headers['openai-beta'];
      const upstream = await connect(target.url, { ...target.headers, ...(beta ? { 'openai-beta': String(beta) } : {}) }, protocols.filter((p) => !p.startsWith(KEY_PROTOCOL)));
      return { route, upstream, price: state.prices.priceOf(route.billedModel) };
    } catch (error) {
      // What the client is told of a refused or unreachable upstream (egress/failure.ts).
      const hub = toHubError(error);
      last = outsideFailure(hub, row, admin);
      if (hub.code !== 'client_closed' && state.ctx.options.get('LogErrorEnabled')) {
        const told = admin ? outsideFailure(hub, row, false) : last;
        writeFailureRow(state, { ...requestLogFields({ ...h, stream: true }, h.requestId, h.ip), model_name: model }, row, hub, told, '/v1/realtime');
      }
      if (!last.retryable) throw last;
    }
  }
  throw last ?? noChannel(group, model);
}

/** Answers a WebSocket handshake with an HTTP error in OpenAI's shape, the request id appended. */
export function refuse(socket: Duplex, error: unknown, requestId: string): void {
  const hub = toHubError(error);
  const body = JSON.stringify({ error: { message: `${hub.message} (request id: ${requestId})`, type: hub.type, code: hub.code } });
  const retry = hub.retryAfter ? `retry-after: ${hub.retryAfter}\r\n` : '';
  socket.end(`HTTP/1.1 ${hub.status} Error\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${retry}connection: close\r\n\r\n${body}`);
}

/**
 * `GET /v1/realtime` as a WebSocket (relay.md §1.1, §4.11): the upstream socket is opened
 * first, so a refused or unreachable channel fails over before the client is accepted.
 */
export function registerRealtime(app: FastifyInstance, ctx: AppContext): UpgradeHandler {
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has('realtime') ? 'realtime' : [...offered].find((p) => !p.startsWith(KEY_PROTOCOL)) ?? false) });
  const onUpgrade: UpgradeHandler = (req, socket, head) => {
    const requestId = `${Date.now().toString(36)}${randomAlnum(6)}`;
    const startedAt = Date.now();
    const state = relayState(ctx);
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    const model = modelAsked(req);
    const trace = ctx.tracer && new RealtimeTrace(ctx.tracer, req, model, startedAt);
    open(state, req, model, protocols, requestId, startedAt).then(
      (s) => {
        trace?.opened(s.route);
        // The in-flight slots are given back once, whichever way the session or the handshake ends.
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          state.inflight.leave(s.caller.user.id);
          if (s.limits) void state.limits.leave(s.limits).catch((e) => ctx.log.warn({ err: e }, 'limit leave failed'));
        };
        if (socket.destroyed) {
          s.upstream.close();
          trace?.refused(new HubError(499, 'client left during the handshake', { code: 'client_closed' }));
          return release();
        }
        socket.once('close', release);
        wss.handleUpgrade(req, socket, head, (client) => {
          runSession(client, s.upstream, { state, ...s, requestId, ip: req.socket.remoteAddress ?? '', startedAt, release, trace: trace || undefined });
        });
      },
      (error) => {
        trace?.refused(error);
        refuse(socket, error, requestId);
      },
    );
  };
  app.addHook('preClose', async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  return onUpgrade;
}
