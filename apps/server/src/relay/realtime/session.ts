import { WebSocket, type RawData } from 'ws';
import { LOG_TYPE } from '@one-hub/contract';
import { requestLogFields } from '../pipeline/settle.js';
import { emptyUsage, type Usage } from '../providers/types.js';
import { computeQuota, type Price } from '../pipeline/pricing.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { Caller } from '../pipeline/caller.js';
import { SAFETY_CODE, SAFETY_MESSAGE } from '../pipeline/content-safety.js';
import type { RoutedChannel } from '../pipeline/attempt.js';
import { holdOnPlan, type PlanAsk } from '../pipeline/plan-hold.js';
import { PlanBook, type PlanHold } from '../pipeline/plans.js';
import { toHubError } from '../../http/errors.js';
import { INFLIGHT_RENEW_MS, type LimitHold } from '../pipeline/limits.js';

/** Unsettled spend of a user's open sessions, shared by every node through the store (relay.md §4.11). */
export const inflightKey = (userId: number) => `user_realtime_quota:${userId}`;
const INFLIGHT_TTL = 86_400;

/** A session with no message either way for this long is closed (relay.md §4.11). */
export const realtimeTiming = { idleMs: 120_000 };

export interface SessionInfo {
  state: RelayState;
  caller: Caller;
  route: RoutedChannel;
  price: Price;
  group: string;
  /** The model asked for: what a plan's coverage is decided by. */
  model: string;
  groupRatio: number;
  /** The owner's balance when the session opened; all of the owner's open sessions together may spend it. */
  userQuota: number;
  /** What a limited token has left (Infinity when unlimited). */
  tokenBudget: number;
  requestId: string;
  ip: string;
  startedAt: number;
  /** The session's entry under its token, user and per-model limits (one request, one in-flight slot). */
  limits?: LimitHold;
  /** Gives the in-flight slot back (once, however the session ends). */
  release: () => void;
}

interface RealtimeUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { cached_tokens?: number; audio_tokens?: number };
  output_token_details?: { audio_tokens?: number };
}

/** EnableSafe on client events: a frame with a forbidden word is answered with an error event and never forwarded. */
function refusedFrame(client: WebSocket, data: RawData, info: SessionInfo): boolean {
  const { safety } = info.state;
  if (!safety.active()) return false;
  let event: unknown;
  try {
    event = JSON.parse(data.toString());
  } catch {
    return false;
  }
  const word = safety.find(event);
  if (word === undefined) return false;
  info.state.ctx.log.warn({ userId: info.caller.user.id, tokenId: info.caller.token.id, door: '/v1/realtime', word }, 'content safety: event refused');
  const error = { type: 'error', event_id: `evt_${info.requestId}`, error: { type: 'invalid_request_error', code: SAFETY_CODE, message: SAFETY_MESSAGE, param: null } };
  if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(error));
  return true;
}

/**
 * Whether a plan's window has room for the next response: probed with the doors' plan hold (of 1,
 * given back at once). Throws the plan's 429 when a covering window is spent and the user does
 * not allow falling back to the balance.
 */
export async function planHasRoom(state: RelayState, ask: PlanAsk): Promise<boolean> {
  const probe = await holdOnPlan(state, ask, 1);
  if (probe) state.plans.release(probe);
  return probe !== undefined;
}

/** A client `response.create` (the only frames the plan gate looks at). */
function isResponseCreate(data: RawData, isBinary: boolean): boolean {
  if (isBinary || !Buffer.isBuffer(data) || !data.includes('"response.create"')) return false;
  try {
    return (JSON.parse(data.toString()) as { type?: unknown }).type === 'response.create';
  } catch {
    return false;
  }
}

/** What a session's responses cost and who paid: the balance, a plan's window, or nobody (a window filled without fall-back). */
interface SessionSpend {
  /** Everything the responses cost. */
  total: number;
  balance: number;
  plan: number;
  uncovered: number;
  /** The last plan hold that paid (the log row names its plan). */
  planHold?: PlanHold;
}

/** Close codes a peer may send (1005, 1006 and 1015 only describe a close, they are never sent). */
const sendable = (code: number) => (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);

function addUsage(total: Usage, u: RealtimeUsage): Usage {
  return {
    ...total,
    promptTokens: total.promptTokens + (u.input_tokens ?? 0),
    completionTokens: total.completionTokens + (u.output_tokens ?? 0),
    cachedTokens: total.cachedTokens + (u.input_token_details?.cached_tokens ?? 0),
    audioInputTokens: total.audioInputTokens + (u.input_token_details?.audio_tokens ?? 0),
    audioOutputTokens: total.audioOutputTokens + (u.output_token_details?.audio_tokens ?? 0),
  };
}

/**
 * Pipes one realtime session both ways, frame for frame. Every `response.done` usage is
 * priced as it arrives and paid at once: from the window of a plan that covers the model (the
 * doors' plan hold, atomic across nodes), else from the balance through the per-user in-flight
 * counter. When the session has spent the caller's balance the client gets an
 * `insufficient_quota` error event and both sides close; when a plan's window is spent (and the
 * user does not allow falling back) the next `response.create` is answered with the plan's
 * error event instead of being forwarded, and a response upstream starts by itself (server VAD)
 * is cancelled with the same event. The token, user and per-model limits gate responses the
 * same way (TPM and spending caps, checked before a response, added to at its `response.done`);
 * the session's in-flight slot is released when it ends. The whole session is logged once, when either side closes.
 */
export function runSession(client: WebSocket, upstream: WebSocket, info: SessionInfo): void {
  let usage = emptyUsage();
  const spend: SessionSpend = { total: 0, balance: 0, plan: 0, uncovered: 0 };
  let charges = Promise.resolve();
  let gated: Promise<void> | undefined;
  let gating = 0;
  /** Client response.creates forwarded whose `response.created` has not come back yet. */
  let asked = 0;
  let closed = false;
  let idle: NodeJS.Timeout;
  // The session's in-flight slot must outlive the counters' fade for as long as it stays open.
  const { limits } = info;
  const renew = limits ? setInterval(() => void info.state.limits.renewInflight(limits).catch(() => undefined), INFLIGHT_RENEW_MS) : undefined;
  renew?.unref();
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => finish(1000, 'idle timeout'), realtimeTiming.idleMs);
  };

  const finish = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    clearInterval(renew);
    info.release();
    for (const ws of [client, upstream]) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
    }
    // Responses still being charged are settled first.
    void charges.then(() => {
      settleSession(info, usage, spend);
      // The recorder owns this spend now; drop it from the in-flight total.
      if (spend.balance) void info.state.ctx.store.incrBy(inflightKey(info.caller.user.id), -spend.balance, INFLIGHT_TTL);
    });
  };
  const sendError = (error: Record<string, unknown>) => {
    if (!closed && client.readyState === WebSocket.OPEN) client.send(JSON.stringify({ type: 'error', event_id: `evt_${info.requestId}`, error: { ...error, param: null } }));
  };

  /** A response is paid as soon as its usage arrives (in order: the spend total only grows). */
  const charge = async (cost: number) => {
    const { state, caller } = info;
    const { user } = caller;
    const fallback = user.plan_fallback === 1;
    // Without fall-back the cost is already incurred: the window pays what it has left, never more.
    const held = cost > 0 ? await state.plans.hold(user.id, info.group, info.model, cost, !fallback) : undefined;
    if (held && 'key' in held) {
      const paid = state.plans.settle(held, cost);
      spend.plan += paid;
      spend.uncovered += cost - paid;
      spend.planHold = held;
      return;
    }
    if (held && !fallback) {
      spend.uncovered += cost;
      return;
    }
    spend.balance += cost;
    const inflight = await state.ctx.store.incrBy(inflightKey(user.id), cost, INFLIGHT_TTL);
    if (inflight < info.userQuota && spend.balance < info.tokenBudget) return;
    sendError({ type: 'insufficient_quota', code: 'insufficient_quota', message: 'user quota is not enough' });
    finish(1008, 'quota exhausted');
  };

  /**
   * A `response.create` is forwarded only while the session's TPM and spending caps are not
   * reached (each response is a request for them) and a covering plan's window has room (or the balance may pay).
   */
  const gate = async (): Promise<boolean> => {
    try {
      if (info.limits) await info.state.limits.admitMore(info.limits.scopes);
      await planHasRoom(info.state, info);
      return true;
    } catch (error) {
      const hub = toHubError(error);
      sendError({ type: hub.type, code: hub.code, message: hub.message });
      return false;
    }
  };

  /** A response upstream started by itself (server VAD) is cancelled when the plan refuses it, as a client's response.create would be. */
  const started = (text: string) => {
    let event: { type?: string; response?: { id?: string } };
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (event.type !== 'response.created') return;
    if (asked > 0) {
      asked--;
      return;
    }
    const id = event.response?.id;
    void gate().then((ok) => {
      if (!ok && upstream.readyState === WebSocket.OPEN) upstream.send(JSON.stringify({ type: 'response.cancel', ...(id ? { response_id: id } : {}) }));
    });
  };

  client.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    if (!isBinary && refusedFrame(client, data, info)) return;
    const forward = () => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    };
    const create = isResponseCreate(data, isBinary);
    if (!create && !gating) return forward();
    // Frames after a gated response.create wait for its verdict, so the order is kept.
    gating++;
    gated = (gated ?? Promise.resolve())
      .then(async () => {
        if (create && !(await gate())) return;
        if (create) asked++;
        forward();
      })
      .finally(() => gating--);
  });
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    if (isBinary) return;
    const text = data.toString();
    if (text.includes('"response.created"')) return started(text);
    if (!text.includes('"response.done"')) return;
    let event: { type?: string; response?: { usage?: RealtimeUsage } };
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (event.type !== 'response.done' || !event.response?.usage) return;
    usage = addUsage(usage, event.response.usage);
    const tokens = (event.response.usage.input_tokens ?? 0) + (event.response.usage.output_tokens ?? 0);
    // Priced on the running total, so the responses' costs add up to the session's exact cost.
    const total = computeQuota(usage, info.price, info.groupRatio);
    const cost = total - spend.total;
    spend.total = total;
    if (info.limits) void info.state.limits.add(info.limits.scopes, tokens, cost).catch((e) => info.state.ctx.log.warn({ err: e }, 'limit counters not updated'));
    charges = charges.then(() => charge(cost)).catch((e) => info.state.ctx.log.warn({ err: e }, 'realtime response not charged'));
  });
  client.on('close', () => finish(1000, 'client closed'));
  upstream.on('close', (code) => finish(sendable(code) ? code : 1011, 'upstream closed'));
  client.on('error', () => finish(1011, 'client error'));
  upstream.on('error', () => finish(1011, 'upstream error'));
  touch();
  upstream.resume();
}

function settleSession(info: SessionInfo, usage: Usage, spend: SessionSpend): void {
  const { state, caller, route } = info;
  const quota = spend.balance;
  const { user, token } = caller;
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: route.row.id, billed: quota });
  if (!state.ctx.options.get('LogConsumeEnabled')) return;
  state.recorder.log({
    type: LOG_TYPE.consume,
    ...requestLogFields({ ...info, stream: true }, info.requestId, info.ip),
    channel_id: route.row.id,
    model_name: route.billedModel,
    quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cache_read_tokens: usage.cachedTokens,
    content: 'realtime session',
    metadata: JSON.stringify({
      msg: { key: 'realtime_session', args: {} },
      group_name: info.group,
      group_ratio: info.groupRatio,
      input_ratio: info.price.input,
      output_ratio: info.price.output,
      ...(usage.audioInputTokens ? { input_audio_tokens: usage.audioInputTokens } : {}),
      ...(usage.audioOutputTokens ? { output_audio_tokens: usage.audioOutputTokens } : {}),
      ...(spend.planHold ? PlanBook.logFields(spend.planHold, spend.plan) : {}),
      // What a spent window (without fall-back to the balance) left unpaid.
      ...(spend.uncovered ? { uncovered_cost: spend.uncovered } : {}),
    }),
  });
}
