import { WebSocket, type RawData } from 'ws';
import { LOG_TYPE } from '@one-hub/contract';
import { chargeWithExcess, requestLogFields } from '../pipeline/accounting/settle.js';
import { emptyUsage, type Usage } from '../providers/types.js';
import { computeQuota, type Price } from '../pipeline/accounting/pricing.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { Caller } from '../pipeline/flow/caller.js';
import { SAFETY_CODE, SAFETY_MESSAGE } from '../pipeline/flow/content-safety.js';
import type { RoutedChannel } from '../pipeline/flow/attempt.js';
import { holdOnPlan, type PlanAsk } from '../pipeline/accounting/plan-hold.js';
import { PlanBook, type PlanHold } from '../pipeline/accounting/plans.js';
import { toHubError } from '../../http/errors.js';
import { HubError } from '../../common/errors.js';
import { INFLIGHT_RENEW_MS, type LimitHold } from '../pipeline/accounting/limits.js';
import type { LeaseHold } from '../pipeline/accounting/leases.js';
import { frameInput, outputCap, readFrame, responseWorstCase } from './worst-case.js';
import { isAdmin, realtimeError, type RealtimeErrorBody } from '../../egress/failure.js';
import { AskedHolds } from './asked.js';
import type { RealtimeTrace } from './trace.js';

/**
 * `idleMs`: a session with no message either way for this long is closed (relay.md §4.11).
 * `answerMs`: upstream answers a `response.create` with `response.created` or an `error` within
 * this long; a hold still waiting then goes back (should the response start later, it is held
 * anew, as one upstream starts by itself).
 */
export const realtimeTiming = { idleMs: 120_000, answerMs: 30_000 };

export interface SessionInfo {
  state: RelayState;
  caller: Caller;
  route: RoutedChannel;
  price: Price;
  group: string;
  /** The model asked for: what a plan's coverage is decided by. */
  model: string;
  groupRatio: number;
  requestId: string;
  ip: string;
  startedAt: number;
  /** The session's entry under its token, user and per-model limits (one request, one in-flight slot). */
  limits?: LimitHold;
  /** Gives the in-flight slots back (once, however the session ends). */
  release: () => void;
  /** The session's spans, only while tracing is on. */
  trace?: RealtimeTrace;
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

/** What one response holds until its `response.done`: its worst case on the balance and against the TPM / spending caps. */
interface ResponseHold {
  /** Absent when a plan's window pays and no balance hold was needed (or could be had as a fall-back). */
  lease?: LeaseHold;
  limit?: LimitHold;
}

/** What a session's responses cost and who paid: the balance, a plan's window, or nobody (a window filled without fall-back, or a cost above its hold the balance could not cover). */
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
 * Pipes one realtime session both ways, frame for frame. Before a client `response.create` is
 * forwarded (and when upstream starts a response by itself under server VAD) the response holds
 * its worst case the way a door request does: reserved against the token, user and per-model TPM
 * and spending caps, and held on the balance's leases (user and limited token) unless a covering
 * plan's window pays. A response that cannot get its hold is refused with a realtime `error` event
 * (a VAD response is also cancelled upstream) and the session stays open. At `response.done` the
 * hold is settled to the response's cost: from a covering plan's window first (as before), else from
 * the lease hold, the rest going back. A client response upstream rejects (an `error` naming its
 * `response.create`, see `AskedHolds`) never runs, and its hold goes back at once. When the session
 * ends, every hold still open is released and the whole session is logged once.
 */
export function runSession(client: WebSocket, upstream: WebSocket, info: SessionInfo): void {
  const { state, caller } = info;
  let usage = emptyUsage();
  const spend: SessionSpend = { total: 0, balance: 0, plan: 0, uncovered: 0 };
  /** Upstream's response events, handled in order (a response's hold is taken before its done is settled). */
  let billing = Promise.resolve();
  let gated: Promise<void> | undefined;
  let gating = 0;
  /** Holds of forwarded client `response.create`s upstream has not answered yet (a `response.created` or an `error` naming it). */
  const asked = new AskedHolds<ResponseHold>(`gw_${info.requestId}_`);
  /** Holds of running responses, by response id. */
  const running = new Map<string, ResponseHold>();
  /** The session's output cap (`session.update`); undefined or 'inf' means the model's limit. */
  let sessionCap: number | 'inf' | undefined;
  /** The input the next response's hold counts: the last response's input + output tokens (read again), plus the client's frames since (estimated). */
  let context = 0;
  let sent = 0;
  let closed = false;
  let idle: NodeJS.Timeout;
  // The session's in-flight slot must outlive the counters' fade for as long as it stays open.
  const { limits } = info;
  const renew = limits ? setInterval(() => void state.limits.renewInflight(limits).catch(() => undefined), INFLIGHT_RENEW_MS) : undefined;
  renew?.unref();
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => finish(1000, 'idle timeout'), realtimeTiming.idleMs);
  };
  const warn = (message: string) => (e: unknown) => state.ctx.log.warn({ err: e }, message);

  const release = (hold: ResponseHold) => {
    if (hold.lease) state.leases.settle(hold.lease, 0);
    if (hold.limit) void state.limits.release(hold.limit).catch(warn('limit reservation not returned'));
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
    // Responses being settled are settled first; what is still held then goes back.
    void billing.then(() => {
      for (const hold of [...asked.drain(), ...running.values()]) release(hold);
      running.clear();
      settleSession(info, usage, spend);
      info.trace?.closed(code, reason, usage);
    });
  };
  const sendError = (error: Record<string, unknown>) => {
    if (!closed && client.readyState === WebSocket.OPEN) client.send(JSON.stringify({ type: 'error', event_id: `evt_${info.requestId}`, error: { ...error, param: null } }));
  };

  /**
   * Holds a response's worst case, or answers why not (a HubError: a limit's or plan's 429, or the
   * balance's 402 / the token's 403). A response a plan's window pays holds nothing on the balance;
   * with fall-back it also holds the balance when the balance has it, for the part the window may not cover.
   */
  const hold = async (cap: number | 'inf' | undefined): Promise<ResponseHold> => {
    const { user, token } = caller;
    const output = typeof cap === 'number' ? cap : state.outputLimits.of(info.route.billedModel);
    const input = context + sent;
    const reserved = responseWorstCase(info.price, info.groupRatio, input, output, state.ctx.options.get('PreConsumedQuota'));
    const held: ResponseHold = {};
    try {
      if (limits) held.limit = await state.limits.reserveMore(limits.scopes, { tokens: input + output, quota: reserved });
      const onPlan = await planHasRoom(state, info);
      if (reserved > 0 && (!onPlan || user.plan_fallback === 1)) {
        const lease = await state.leases.hold(user.id, token.id, token.unlimited_quota !== 1, reserved);
        if (typeof lease !== 'string') held.lease = lease;
        else if (!onPlan) throw insufficient(lease, reserved, typeof cap === 'number');
      }
      return held;
    } catch (error) {
      release(held);
      throw error;
    }
  };

  /** A response's hold, or the error event that refuses it. */
  const gate = async (cap: number | 'inf' | undefined): Promise<ResponseHold | undefined> => {
    try {
      const held = await hold(cap);
      if (!closed) return held;
      release(held); // the session ended while the hold was taken
    } catch (error) {
      const hub = toHubError(error);
      sendError({ type: hub.type, code: hub.code, message: hub.message });
    }
    return undefined;
  };

  /**
   * A response is paid when its usage arrives: from a covering plan's window first (without
   * fall-back the window pays what it has left, never more), else from its balance hold. A cost
   * above the hold (the worst case's input side is an estimate) is held again from the balance,
   * as far as the balance and the token's quota have it; only what they lack is recorded unpaid,
   * never owed. The rest of the hold goes back, and the limit windows get the real figures.
   */
  const charge = async (held: ResponseHold | undefined, cost: number, tokens: number) => {
    const { user } = caller;
    const fallback = user.plan_fallback === 1;
    const plan = cost > 0 ? await state.plans.hold(user.id, info.group, info.model, cost, !fallback) : undefined;
    let paid = 0;
    const lease = held?.lease;
    if (plan && 'key' in plan) {
      paid = state.plans.settle(plan, cost);
      spend.plan += paid;
      spend.uncovered += cost - paid;
      spend.planHold = plan;
      if (lease) state.leases.settle(lease, 0);
    } else if (plan && !fallback) {
      spend.uncovered += cost;
      if (lease) state.leases.settle(lease, 0);
    } else if (cost > 0) {
      // Without a hold (a VAD response that was refused, or a plan's fall-back the balance could not hold) all of it is held now.
      paid = await chargeWithExcess(state, caller, info.route.row.id, lease, cost, 0);
      spend.balance += paid;
      spend.uncovered += cost - paid;
    } else if (lease) state.leases.settle(lease, 0);
    if (held?.limit) await state.limits.settled(held.limit, tokens, paid);
    else if (limits) await state.limits.add(limits.scopes, tokens, paid);
  };

  /** `response.created`: a client's response takes the oldest asked hold; one upstream started by itself (server VAD) is gated now, and cancelled when refused. */
  const started = async (id: string | undefined) => {
    if (id) info.trace?.started(id);
    let held = asked.take();
    if (!held) {
      held = await gate(sessionCap);
      if (!held) {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(JSON.stringify({ type: 'response.cancel', ...(id ? { response_id: id } : {}) }));
        return;
      }
    }
    if (id) running.set(id, held);
    else release(held);
  };

  /** An `error` upstream answered a forwarded `response.create` with: that response never runs, so its hold goes back now. */
  const rejected = (eventId: unknown) => {
    const held = asked.rejected(eventId);
    if (held) release(held);
  };

  const done = async (response: { id?: string; usage?: RealtimeUsage }) => {
    const held = response.id ? running.get(response.id) : undefined;
    if (response.id) running.delete(response.id);
    const u = response.usage;
    info.trace?.done(response.id, u && addUsage(emptyUsage(), u));
    if (!u) {
      if (held) release(held);
      return;
    }
    usage = addUsage(usage, u);
    const tokens = (u.input_tokens ?? 0) + (u.output_tokens ?? 0);
    // The next response reads this one's context again.
    context = Math.max(context, tokens);
    sent = 0;
    // Priced on the running total, so the responses' costs add up to the session's exact cost.
    const total = computeQuota(usage, info.price, info.groupRatio);
    const cost = total - spend.total;
    spend.total = total;
    await charge(held, cost, tokens);
  };

  client.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    if (!isBinary && refusedFrame(client, data, info)) return;
    const forward = (out: RawData | string = data) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(out, { binary: isBinary });
    };
    const frame = readFrame(data, isBinary);
    if (frame?.type === 'session.update' && frame.session) {
      const cap = outputCap(frame.session.max_response_output_tokens, frame.session.max_output_tokens);
      if (cap !== undefined) sessionCap = cap;
    }
    const create = frame?.type === 'response.create';
    if (!create) sent += frameInput(data, isBinary);
    if (!create && !gating) return forward();
    // Frames after a gated response.create wait for its verdict, so the order is kept.
    gating++;
    gated = (gated ?? Promise.resolve())
      .then(async () => {
        if (create) {
          const held = await gate(outputCap(frame.response?.max_output_tokens, frame.response?.max_response_output_tokens) ?? sessionCap);
          if (!held) return;
          forward(asked.add(frame, data, held));
          const unanswered = () => {
            if (asked.withdraw(held)) release(held);
          };
          setTimeout(() => (billing = billing.then(unanswered)), realtimeTiming.answerMs).unref();
          return;
        }
        forward();
      })
      .finally(() => gating--);
  });
  const admin = isAdmin(caller.user.role);
  const clientError = (error: RealtimeErrorBody) => {
    const mapped = realtimeError(error, info.route.row, admin, info.requestId);
    return asked.gave(error.event_id) ? { ...mapped, event_id: null } : mapped;
  };
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    const text = isBinary ? '' : data.toString();
    const created = text.includes('"response.created"');
    const erring = text.includes('"error"');
    let event: { type?: string; response?: { id?: string; usage?: RealtimeUsage }; error?: RealtimeErrorBody } | undefined;
    if (created || erring || text.includes('"response.done"')) {
      try {
        event = JSON.parse(text);
      } catch {
        event = undefined;
      }
    }
    // An upstream error reaches the client mapped (egress/failure.ts); one naming an event_id the
    // gateway gave names none: the client sent none.
    const out = event?.type === 'error' && event.error && typeof event.error === 'object' ? JSON.stringify({ ...event, error: clientError(event.error) }) : data;
    if (client.readyState === WebSocket.OPEN) client.send(out, { binary: isBinary });
    if (!event || closed) return;
    const { type, response } = event;
    if (type === 'response.created') billing = billing.then(() => started(response?.id)).catch(warn('realtime response not held'));
    else if (type === 'response.done' && response) billing = billing.then(() => done(response)).catch(warn('realtime response not charged'));
    else if (type === 'error') billing = billing.then(() => rejected(event.error?.event_id)).catch(warn('rejected realtime response not released'));
  });
  client.on('close', () => finish(1000, 'client closed'));
  upstream.on('close', (code) => finish(sendable(code) ? code : 1011, 'upstream closed'));
  client.on('error', () => finish(1011, 'client error'));
  upstream.on('error', () => finish(1011, 'upstream error'));
  touch();
  upstream.resume();
}

/** The refusal of a response whose worst case the balance (402) or the limited token (403) cannot hold. */
function insufficient(short: 'user' | 'token', reserved: number, capped: boolean): HubError {
  const whose = short === 'user' ? 'user quota' : 'token quota';
  const hint = capped ? 'lower max_output_tokens' : 'set max_output_tokens (or the session\'s max_response_output_tokens)';
  return new HubError(short === 'user' ? 402 : 403, `${whose} is not enough for this response: its worst case is ${reserved} quota; ${hint} or add quota`, { type: 'insufficient_quota', code: 'insufficient_quota' });
}

function settleSession(info: SessionInfo, usage: Usage, spend: SessionSpend): void {
  const { state, caller, route } = info;
  const quota = spend.balance;
  const { user, token } = caller;
  // The session is one request; its responses' charges were recorded as they were settled.
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: route.row.id, billed: 0 });
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
