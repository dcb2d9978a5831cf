import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHANNEL_STATUS } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import { findChannelById } from '../../../db/repos/channels.js';
import type { Endpoint } from '../../providers/types.js';
import type { RelayState } from '../relay-state.js';
import { hubOf, prepare, type DoorInput, type Prepared, type WorstCase } from './prepare.js';
import { planAttempt, type AttemptPlan } from '../../bridge/plan.js';
import { suffixBody } from '../../bridge/suffix.js';
import { authorizeUpstream, buildUpstream, routeTo, withModel, type RoutedChannel } from './attempt.js';
import { sendUpstreamBuffered, sendUpstreamStream, UpstreamStream, type BufferedResponse } from './upstream.js';
import { classifyFailure, cooldownSeconds, freezesChannel, noChannel, unknownModel } from '../routing/failure.js';
import { callerError, isAdmin, scrubIdentity } from '../../../egress/failure.js';
import { logFailure } from './failure-log.js';
import { checkAnswer } from './answer-check.js';
import { affordableOutput, atScale, reserveQuota as reserveAmount, type Price } from '../accounting/pricing.js';
import { holdRatio, serviceAsk } from '../accounting/service.js';
import { CAPPED_OUTPUT } from '../accounting/bound-usage.js';
import { lowerMaxOutput, MIN_LOWERED_OUTPUT } from './max-output.js';
import { autoDisable } from '../routing/auto-disable.js';
import { respondJson, transformAnswer, type SentAnswer } from './respond-json.js';
import { respondStream } from './respond-stream.js';
import { releaseHold } from '../accounting/settle.js';
import type { LeaseHold } from '../accounting/leases.js';
import { startHeartbeat } from './heartbeat.js';
import { withHistory } from '../../bridge/responses-history.js';
import { releaseSticky, selectSticky } from '../routing/sticky.js';
import { countProviderRequest } from '../../../http/metrics.js';
import { countUpstreamError } from '../../../http/relay-metrics.js';
import { FirstByteWatch, logClientLeft } from './first-byte.js';
import { limitScopes } from '../accounting/limits.js';
import { isAgentInteraction } from '../../formats/gemini/interactions.js';
import { BACKGROUND_NOT_STARTED, startLocalBackground } from '../../responses/background-local.js';
import { holdOnPlan } from '../accounting/plan-hold.js';
import type { PlanHold } from '../accounting/plans.js';
import type { AttemptTrace } from '../../../telemetry/tracing.js';
import { tracedByRelay } from '../../../telemetry/door-spans.js';

/** Gemini door endpoints: the model travels in the URL, not the body. */
const GEMINI_PATH_MODEL = new Set<Endpoint>(['generateContent', 'embedContent', 'batchEmbedContents']);

export interface Hold {
  route: RoutedChannel;
  price: Price;
  reserved: number;
  /** The output tokens the hold covers: what the answer is bounded to when billed. */
  maxOutput: number;
  /** The request's output cap was lowered to what the balance covers (LowerMaxTokensToBalance). */
  lowered?: boolean;
  /** Where the hold was taken; absent when nothing was held (a free request). */
  lease?: LeaseHold;
  /** Held on a subscription plan's window instead of the balance (plans.ts). */
  planHold?: PlanHold;
  /** Pass-through or conversion for this attempt. */
  plan: AttemptPlan;
}

/**
 * One relay request: pick a channel, hold the worst-case cost, call upstream,
 * fail over on retryable errors (before the first byte only), settle the hold.
 */
export async function handleRelay(state: RelayState, req: FastifyRequest, reply: FastifyReply, endpoint: Endpoint, door?: DoorInput): Promise<void> {
  const p = await prepare(state, req, endpoint, door);
  // The one check tracing costs when it is off.
  if (!state.ctx.tracer) return serve(state, req, reply, endpoint, p);
  tracedByRelay(req);
  const trace = (p.trace = state.ctx.tracer.request({ endpoint, model: p.model, stream: p.stream, startedAt: p.startedAt, maxOutput: p.maxOutput, headers: req.headers, body: p.body }));
  try {
    await serve(state, req, reply, endpoint, p);
  } catch (error) {
    trace.fail(error);
    throw error;
  } finally {
    trace.end();
  }
}

/** The prepared request within the user's in-flight slot and the request limits. */
async function serve(state: RelayState, req: FastifyRequest, reply: FastifyReply, endpoint: Endpoint, p: Prepared): Promise<void> {
  const userId = p.caller.user.id;
  state.inflight.enter(userId, state.ctx.options.get('UserMaxInflight'));
  try {
    await enterLimits(state, p);
  } catch (error) {
    state.inflight.leave(userId);
    throw error;
  }
  try {
    const beat = startHeartbeat(p, reply);
    if (!beat) return await attempts(state, req, reply, endpoint, p);
    try {
      await attempts(state, req, reply, endpoint, p);
    } catch (error) {
      // Once a keep-alive has opened the response, the final error is written into it.
      if (!beat.writeError(error)) throw error;
      p.trace?.fail(error);
    } finally {
      beat.stop();
    }
  } finally {
    state.inflight.leave(userId);
    if (p.limits) void state.limits.leave(p.limits).catch((e) => state.ctx.log.warn({ err: e }, 'limit leave failed'));
  }
}

/** Token, user and per-model limits; a caller with none set pays three property reads. */
async function enterLimits(state: RelayState, p: Prepared): Promise<void> {
  const { token, user, setting, userLimits } = p.caller;
  const scopes = limitScopes({ id: token.id, limits: setting.limits.request_limits }, { id: user.id, limits: userLimits }, p.group, p.model, state.groups.limitsOf(p.group));
  if (!scopes.length) return;
  p.limits = await state.limits.enter(scopes, limitWant(state, p));
}

/** The worst case a request may add to TPM and the spending caps, reserved at admission (settled to actual). */
function limitWant(state: RelayState, p: Prepared): { tokens: number; quota: number } {
  const worst = worstCase(state, p, p.model);
  return { tokens: p.promptEstimate + (worst.maxOutput ?? 0), quota: worst.reserved };
}

/**
 * The worst case of the request on `model`: without its own cap, a text request may run to the
 * model's output limit. Computed once for admission and the hold alike; computed again only when
 * the billed model, the group or the output cap changed in between.
 */
function worstCase(state: RelayState, p: Prepared, model: string): WorstCase {
  const known = p.worst;
  if (known && known.model === model && known.groupRatio === p.groupRatio && known.askedOutput === p.maxOutput) return known;
  const base = state.prices.priceOf(model);
  // Held at the dearest service class the answer could come back in (settlement bills the one it did).
  const price = atScale(base, holdRatio(base, serviceAsk(p.body)));
  const maxOutput = CAPPED_OUTPUT.has(p.endpoint) ? (p.maxOutput ?? state.outputLimits.of(model)) : p.maxOutput;
  const reserved = reserveAmount(price, p.groupRatio, p.promptEstimate, maxOutput, state.ctx.options.get('PreConsumedQuota'));
  p.worst = { model, groupRatio: p.groupRatio, askedOutput: p.maxOutput, price, maxOutput, reserved };
  return p.worst;
}

async function attempts(state: RelayState, req: FastifyRequest, reply: FastifyReply, endpoint: Endpoint, p: Prepared): Promise<void> {
  const { ctx, selector } = state;
  const tried = new Set<number>();
  if (p.caller.excludedChannel) tried.add(p.caller.excludedChannel);
  // Encrypted items bind a follow-up to their channel only where that channel serves the model asked
  // for: a conversation that moved to another model (a converted family drops the items) routes as any.
  if (p.sealedItem && state.selector.serves(p.group, p.model, p.ownerChannel!) === false) p.ownerChannel = p.sealedItem = undefined;
  // A response kept upstream can be continued only where it is kept: no other channel to retry on.
  const extraAttempts = p.caller.pinnedChannel || p.ownerChannel ? 0 : Math.max(0, ctx.options.get('RetryTimes'));
  let lastError: HubError | undefined;
  const hub = () => hubOf(p);

  for (let attempt = 0; attempt <= extraAttempts; attempt++) {
    const row = await pickChannel(state, p, tried);
    if (!row) throw lastError ?? noChannelFor(state, p);
    tried.add(row.id);
    let hold: Hold | undefined;
    let watch: FirstByteWatch | undefined;
    let span: AttemptTrace | undefined;
    try {
      const route = routeTo(row, p.model);
      if (p.trace) span = p.trace.attempt({ channelId: row.id, adapter: route.adapter.name, channelType: row.type, upstreamModel: route.upstreamModel, baseUrl: route.target.baseUrl });
      let plan = planAttempt(endpoint, route.adapter, hub, route.upstreamModel, p.stream, state.convert, row.compatible_response === 1);
      // A converted channel keeps nothing upstream: the gateway runs a background response itself.
      if (endpoint === 'responses' && plan.converted && !p.stream && (p.body as Record<string, unknown>).background === true) return await startLocalBackground(state, req, reply, p);
      hold = await holdQuota(state, p, route, plan);
      // A lowered output cap changed the body: the conversion is made again from it.
      if (hold.lowered) hold.plan = plan = planAttempt(endpoint, route.adapter, hub, route.upstreamModel, p.stream, state.convert, row.compatible_response === 1);
      const body = plan.converted ?? sameFamilyBody(state, p, endpoint, route.upstreamModel);
      const built = buildUpstream(route, plan.endpoint, body, {
        stream: p.stream,
        contentType: req.headers['content-type'],
        model: route.upstreamModel,
        inbound: req.headers,
      });
      const upstreamReq = await authorizeUpstream(route, built, row.proxy);
      watch = new FirstByteWatch(reply, ctx.options.get('FirstByteTimeoutSeconds'));
      const res = p.stream
        ? await sendUpstreamStream(upstreamReq, { proxy: row.proxy, proxyKey: route.target.key, watch, idleTimeoutMs: Math.max(0, ctx.options.get('StreamIdleTimeoutSeconds')) * 1000 })
        : await sendUpstreamBuffered(upstreamReq, { proxy: row.proxy, proxyKey: route.target.key, watch });
      span?.status(res.statusCode);
      if (res.statusCode >= 400) {
        const text = res instanceof UpstreamStream ? await res.text() : res.body.toString('utf8');
        const error = route.adapter.mapError(res.statusCode, text);
        if (res.statusCode === 429) selector.freeze(row.id, p.model, cooldownSeconds(res.headers['retry-after'], ctx.options.get('RetryCooldownSeconds')));
        throw error;
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const stream = res instanceof UpstreamStream ? res : undefined;
      const streamed = stream && (contentType.includes('text/event-stream') || Boolean(route.adapter.streamFraming && contentType.includes(route.adapter.streamFraming.contentType)));
      if (!streamed) watch.stop(); // a plain answer to a stream request: its body is read whole below
      // Bedrock answers a stream request with a plain body only to report an error (relay.md §5.8).
      if (stream && !streamed && route.adapter.streamFraming) throw route.adapter.mapError(502, await stream.text());
      // A stream request may still get a plain answer: read it whole before the responder owns the hold.
      const whole = streamed ? undefined : transformAnswer(route.adapter, plan.endpoint, stream ? await stream.whole() : (res as BufferedResponse), body);
      // A 200 that is not the endpoint's answer is a failed attempt: found before the hold changes hands.
      const json = whole && checkAnswer(plan.endpoint, whole);
      // A captured stream keeps what the client is sent; nothing is collected unless a rule names this attempt.
      const tap = !whole && state.capture.active && state.capture.matches(p.caller.user.id, p.caller.token.id, row.id) ? state.capture.streamTap(p.jsonArray) : undefined;
      const h = hold;
      hold = undefined; // from here the responder owns the hold and settles it
      if (whole) {
        let sent: SentAnswer | undefined;
        try {
          sent = await respondJson(state, p, h, whole, reply, json);
        } finally {
          // What the client received (keep-alives and a converted answer included), as a stream's tap keeps;
          // the upstream answer when none was sent.
          if (state.capture.active) captureAttempt(state, req, p, row.id, res.statusCode, sent ? sent.keptAlive + sent.body.toString() : whole.body.toString('utf8'));
        }
      } else await respondStream(state, p, h, stream!, reply, watch, tap);
      if (tap) captureAttempt(state, req, p, row.id, res.statusCode, tap);
      countProviderRequest(ctx, row, p.model, 'success');
      return;
    } catch (error) {
      if (hold) releaseHold(state, hold);
      const hub = error instanceof HubError ? error : new HubError(502, (error as Error).message, { retryable: true });
      span?.end(watch?.reason?.code === 'client_closed' ? watch.reason : hub);
      if (hub.code === 'insufficient_quota_local' || hub.code === 'plan_window_spent' || hub.code === 'plan_window_too_small' || hub.code === BACKGROUND_NOT_STARTED) throw hub;
      if (watch?.reason?.code === 'client_closed') {
        // Nobody is left to answer; upstream was cancelled and nothing is billed.
        logClientLeft(state, p, row.id, req.id, req.ip);
        reply.hijack();
        return;
      }
      const verdict = classifyFailure(hub, ctx.options.get('DisableChannelKeywords').split('\n').map((k) => k.trim()));
      if (freezesChannel(hub)) selector.freeze(row.id, p.model, ctx.options.get('RetryCooldownSeconds'));
      // The caller's own 4xx is not the channel's failure.
      if (verdict.retry || verdict.channelFault) countProviderRequest(ctx, row, p.model, 'error');
      countUpstreamError(ctx, row.id, verdict.channelFault ? 'channel' : verdict.retry ? 'retryable' : 'caller', hub.status);
      logFailure(state, p, row, hub, req.id, req.ip, callerError(hub, verdict, row, false));
      if (state.capture.active) captureAttempt(state, req, p, row.id, hub.status, typeof hub.upstream === 'string' && hub.upstream ? hub.upstream : hub.message);
      if (verdict.channelFault) void autoDisable(state, row, scrubIdentity(hub.message, row, true));
      if (verdict.retry || verdict.channelFault) releaseSticky(state, p);
      lastError = callerError(hub, verdict, row, isAdmin(p.caller.user.role));
      if (!verdict.retry) throw lastError;
      if (Date.now() - p.startedAt > ctx.options.get('RetryTimeOut') * 1000 && attempt < extraAttempts) throw lastError;
    } finally {
      watch?.stop();
      span?.end();
    }
  }
  throw lastError ?? noChannelFor(state, p);
}

/** Keeps this attempt's bodies when a capture rule names its user, token or channel (only called while one is live). */
function captureAttempt(state: RelayState, req: FastifyRequest, p: Prepared, channelId: number, status: number, response: unknown): void {
  const { token, user } = p.caller;
  if (!state.capture.matches(user.id, token.id, channelId)) return;
  state.capture.record({ requestId: req.id, userId: user.id, tokenId: token.id, channelId, status, headers: req.headers, request: p.body, response });
}

/** 404 for a model no channel anywhere serves (clients retry a 503, and should not retry a typo). */
function noChannelFor(state: RelayState, p: Prepared) {
  return state.selector.knowsModel(p.model) ? noChannel(p.group, p.model) : unknownModel(p.model);
}

async function pickChannel(state: RelayState, p: Prepared, tried: Set<number>) {
  if (p.caller.pinnedChannel) {
    if (tried.has(p.caller.pinnedChannel)) return undefined;
    const row = await findChannelById(state.ctx.db, p.caller.pinnedChannel);
    if (!row) throw new HubError(503, '无效的渠道 Id', { type: 'one_hub_error' });
    if (row.status !== CHANNEL_STATUS.enabled) throw new HubError(503, '该渠道已被禁用', { type: 'one_hub_error' });
    return row;
  }
  if (p.ownerChannel) return ownerChannel(state, p, tried);
  const picked = await selectSticky(state, p, p.group, { exclude: tried, stream: p.stream, hasTools: p.hasTools });
  if (picked) return picked.row;
  // The token's backup group serves when its main group has nothing left (relay.md §3.6).
  const backup = p.caller.token.backup_group;
  if (backup && backup !== p.group) {
    const groupRow = state.groups.get(backup);
    const other = groupRow && (await selectSticky(state, p, backup, { exclude: tried, stream: p.stream, hasTools: p.hasTools }));
    if (other && groupRow) {
      p.group = backup;
      p.groupRatio = Number(groupRow.ratio);
      return other.row;
    }
  }
  return undefined;
}

/**
 * The channel keeping the response a follow-up continues, or that produced its encrypted items.
 * Gone or disabled, the follow-up is refused: another channel would not know the id, or worse,
 * answer without the conversation (or reject the encrypted content as corrupt).
 */
function ownerChannel(state: RelayState, p: Prepared, tried: Set<number>) {
  const id = p.ownerChannel!;
  if (tried.has(id)) return undefined;
  const entry = state.selector.index.byId.get(id);
  if (!entry) {
    const body = p.body as Record<string, unknown>;
    // Google answers a failed precondition with 400 (its SDK retries a 409).
    if (p.endpoint === 'interactions') {
      throw new HubError(400, `previous_interaction_id ${String(body.previous_interaction_id)} is kept by a channel that is no longer available: send the whole conversation in input instead`, {
        code: 'FAILED_PRECONDITION',
      });
    }
    if (p.sealedItem) {
      throw new HubError(409, `input item ${p.sealedItem} carries encrypted content produced by a channel that is no longer available, and no other upstream can read it: drop the encrypted reasoning and compaction items from input (or start a new conversation) instead`, {
        type: 'invalid_request_error',
        code: 'encrypted_content_channel_unavailable',
      });
    }
    throw new HubError(409, `previous_response_id ${String(body.previous_response_id)} is kept by a channel that is no longer available: send the whole conversation in input instead`, {
      type: 'invalid_request_error',
      code: 'previous_response_channel_unavailable',
    });
  }
  return entry.row;
}

/**
 * The body a same-family channel gets: Gemini's as it came (the model travels in the URL), an agent
 * interaction naming the channel's agent, otherwise the caller's body with the channel's model.
 */
function sameFamilyBody(state: RelayState, p: Prepared, endpoint: Endpoint, upstreamModel: string): Record<string, unknown> | Buffer {
  if (GEMINI_PATH_MODEL.has(endpoint)) return p.body;
  if (endpoint === 'interactions' && isAgentInteraction(p.body as Record<string, unknown>)) return withAgent(p.body as Record<string, unknown>, upstreamModel);
  return withModel(passThroughBody(state, p, upstreamModel), upstreamModel, p.model);
}

/** An agent interaction's body with the channel's name for the agent (the same object when unchanged). */
function withAgent(body: Record<string, unknown>, agent: string): Record<string, unknown> {
  return body.agent === agent ? body : { ...body, agent };
}

/** The caller's body for a same-family channel: stored history restored, the model suffix applied. */
function passThroughBody(state: RelayState, p: Prepared, upstreamModel: string): Record<string, unknown> | Buffer {
  if (Buffer.isBuffer(p.body)) return p.body;
  const body = p.history ? withHistory(p.body, p.history) : p.body;
  return p.modelArg ? suffixBody(p.endpoint, body, p.modelArg, state.convert, upstreamModel) : body;
}

async function holdQuota(state: RelayState, p: Prepared, route: RoutedChannel, plan: AttemptPlan): Promise<Hold> {
  const { price, maxOutput, reserved } = worstCase(state, p, route.billedModel);
  // One object per attempt, filled in as the hold is taken.
  const hold: Hold = { route, price, reserved: 0, maxOutput: maxOutput ?? Number.MAX_SAFE_INTEGER, plan, lease: undefined, planHold: undefined };
  if (reserved <= 0) return hold;
  hold.reserved = reserved;
  hold.planHold = await holdOnPlan(state, p, reserved, 'it comes from the prompt and max_tokens: lower max_tokens or ');
  if (hold.planHold) return hold;
  const { token, user } = p.caller;
  const limited = token.unlimited_quota !== 1;
  let lease = await state.leases.hold(user.id, token.id, limited, reserved);
  if (typeof lease === 'string' && maxOutput !== undefined && CAPPED_OUTPUT.has(p.endpoint) && state.ctx.options.get('LowerMaxTokensToBalance')) {
    // Served with the output cap the balance covers, when it covers a useful answer.
    const available = await state.leases.available(user.id, token.id, limited);
    const preConsumed = state.ctx.options.get('PreConsumedQuota');
    const fits = affordableOutput(price, p.groupRatio, p.promptEstimate, available, preConsumed);
    if (fits >= MIN_LOWERED_OUTPUT && fits < maxOutput) {
      const lowered = reserveAmount(price, p.groupRatio, p.promptEstimate, fits, preConsumed);
      lease = await state.leases.hold(user.id, token.id, limited, lowered);
      if (typeof lease !== 'string') {
        lowerMaxOutput(p, fits);
        return Object.assign(hold, { reserved: lowered, maxOutput: fits, lease, lowered: true });
      }
    }
  }
  if (lease === 'token') throw new HubError(403, '令牌额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  if (lease === 'user') throw new HubError(402, '用户额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  hold.lease = lease;
  return hold;
}
