import { LOG_TYPE, tierLabel, type LogMessage } from '@one-hub/contract';
import { observeAnswer } from '../../../http/relay-metrics.js';
import { nowSeconds } from '../../../common/time.js';
import type { Endpoint, Usage } from '../../providers/types.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from '../flow/prepare.js';
import type { Caller } from '../flow/caller.js';
import type { Hold } from '../flow/handle.js';
import { atScale, costAt, priceTier, ratioOf, type ExtraClass, type Price } from './pricing.js';
import { boundUsage, type Bounded } from './bound-usage.js';
import { serviceAsk, serviceClass, type ServiceClass } from './service.js';
import { PlanBook } from './plans.js';
import type { LeaseHold } from './leases.js';

export interface Outcome {
  usage: Usage;
  /** Usage was counted locally because upstream sent none. */
  estimated: boolean;
  /** Milliseconds to the first streamed byte, when streamed. */
  firstResponseMs?: number;
  /** Set when the answer broke off (client gone or upstream failed mid-stream). */
  note?: { content: string; msg: LogMessage };
  requestId: string;
  ip: string;
}

/** A log row's text and the message key the console translates it by (see contract/log-message.ts). */
export function messageFields(m: { content: string; msg: LogMessage }): { content: string; metadata: string } {
  return { content: m.content, metadata: JSON.stringify({ msg: m.msg }) };
}

/** The front door a request came in by, as the log records it (the /claude and /gemini prefixes are aliases). */
export function doorOf(endpoint: Endpoint): string {
  if (endpoint === 'generateContent' || endpoint === 'embedContent' || endpoint === 'batchEmbedContents') return '/v1beta';
  if (endpoint === 'interactions') return '/v1beta/interactions';
  return `/v1/${endpoint}`;
}

/** Settles a hold to the real cost and queues the consumption log row (relay.md §4.8–4.9). */
export function settle(state: RelayState, p: Prepared, hold: Hold, outcome: Outcome): void {
  const { token, user } = p.caller;
  if (p.trace) traceSettled(p, hold, outcome);
  const bounded = boundUsage(outcome.usage, p.endpoint, p.promptEstimate, hold.maxOutput);
  // The service class the upstream reports (else the one asked for) multiplies the whole price.
  const service = serviceClass(hold.price, serviceAsk(p.body), bounded.usage);
  const tier = priceTier(atScale(hold.price, service.ratio), bounded.usage.promptTokens);
  const cost = costAt(bounded.usage, tier.price, p.groupRatio);
  // A plan pays from its window (up to the hold) and the balance pays nothing.
  const planPaid = hold.planHold ? state.plans.settle(hold.planHold, cost) : undefined;
  const lease = planPaid === undefined ? hold.lease : undefined;
  if (lease && cost > lease.amount) {
    // Above the hold (upstream counted more prompt than the estimate): the excess is held again from
    // the balance, as far as it and the token have it; a balance never goes below zero.
    const charged = chargeWithExcess(state, p.caller, hold.route.row.id, lease, cost, 1).then((quota) => record(state, p, hold, outcome, bounded, tier, service, cost, quota));
    state.recorder.awaitBeforeClose(charged);
    return;
  }
  const quota = planPaid !== undefined ? 0 : lease ? chargeLease(state, p.caller, hold.route.row.id, lease, cost, 1) : cost;
  if (!lease) state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: hold.route.row.id, billed: quota });
  record(state, p, hold, outcome, bounded, tier, service, cost, quota, planPaid);
}

/** The request span's usage, models and time to first byte (only called while tracing is on). */
function traceSettled(p: Prepared, hold: Hold, outcome: Outcome): void {
  const broke = outcome.note ? outcome.note.msg.key : undefined;
  p.trace!.settled({ channelId: hold.route.row.id, upstreamModel: hold.route.upstreamModel, usage: outcome.usage, estimated: outcome.estimated, firstResponseMs: outcome.firstResponseMs, broke });
}

/** Settles one balance hold to `cost` and queues the charge against the lease rows it came from; answers what was billed. */
export function chargeLease(state: RelayState, caller: Caller, channelId: number, lease: LeaseHold, cost: number, requests: number): number {
  const { token, user } = caller;
  const billed = state.leases.settle(lease, cost);
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId, billed, spend: state.leases.spendTargets(lease), requests });
  return billed;
}

/**
 * Charges `cost` to a balance hold (none: nothing was held) and what lies above it to the balance
 * held again, as far as the balance and the token have it; answers what was billed (below `cost`
 * only when they lack the rest).
 */
export async function chargeWithExcess(state: RelayState, caller: Caller, channelId: number, lease: LeaseHold | undefined, cost: number, requests: number): Promise<number> {
  const { token, user } = caller;
  const first = lease ? chargeLease(state, caller, channelId, lease, Math.min(cost, lease.amount), requests) : 0;
  if (first >= cost) return first;
  try {
    const more = await state.leases.holdUpTo(user.id, token.id, token.unlimited_quota !== 1, cost - first);
    return first + (more ? chargeLease(state, caller, channelId, more, more.amount, 0) : 0);
  } catch (e) {
    state.ctx.log.warn({ err: e }, 'excess above the hold not charged');
    return first;
  }
}

/** The limit windows, the channel's answer metrics and the consumption log row of a settled request. */
function record(state: RelayState, p: Prepared, hold: Hold, outcome: Outcome, bounded: Bounded, tier: { index: number; price: Price }, service: ServiceClass, cost: number, quota: number, planPaid?: number): void {
  if (p.limits) {
    const tokens = bounded.usage.promptTokens + bounded.usage.completionTokens;
    void state.limits.settled(p.limits, tokens, planPaid ?? quota).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
  }
  observeAnswer(state.ctx, hold.route.row.id, p.model, { startedAt: p.startedAt, firstResponseMs: outcome.firstResponseMs, completionTokens: bounded.usage.completionTokens });
  if (!state.ctx.options.get('LogConsumeEnabled')) return;
  const u = bounded.usage;
  state.recorder.log({
    type: LOG_TYPE.consume,
    ...requestLogFields(p, outcome.requestId, outcome.ip),
    channel_id: hold.route.row.id,
    model_name: hold.route.billedModel,
    quota,
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    cache_read_tokens: u.cachedTokens + u.cacheReadTokens,
    cache_write_tokens: u.cacheWriteTokens + u.cacheWrite1hTokens,
    reasoning_tokens: u.reasoningTokens,
    estimated: outcome.estimated ? 1 : 0,
    content: outcome.note?.content ?? '',
    metadata: JSON.stringify(logMetadata(p, hold, tier, service, outcome, bounded.usage, planPaid === undefined && quota < cost ? cost : undefined, bounded.capped, planPaid)),
  });
}

/** What every log row of a relay request says about it (a Prepared request has all of it). */
export interface RequestFacts {
  caller: Caller;
  startedAt: number;
  stream: boolean;
  group: string;
}

/** The fields every log row of a relay request carries: who asked, when, how long it took, from where. */
export function requestLogFields(p: RequestFacts, requestId: string, ip: string) {
  const { token, user } = p.caller;
  return {
    created_at: nowSeconds(),
    user_id: user.id,
    username: user.username,
    token_id: token.id,
    token_name: token.name,
    request_time: Date.now() - p.startedAt,
    is_stream: p.stream ? 1 : 0,
    source_ip: ip,
    group: p.group,
    request_id: requestId,
  };
}

/** The log row's metadata: how the request was billed. Optional keys appear only when they apply. */
function logMetadata(p: Prepared, hold: Hold, tier: { index: number; price: Price }, service: ServiceClass, outcome: Outcome, u: Usage, uncovered?: number, capped?: Bounded['capped'], planPaid?: number): Record<string, unknown> {
  const meta: Record<string, unknown> = { door: doorOf(p.endpoint), usage_source: outcome.estimated ? 'estimated' : 'reported' };
  // Assigned one by one rather than spread from temporary objects: this runs once per request.
  if (outcome.note) meta.msg = outcome.note.msg;
  if (hold.plan.converted) meta.converted_to = hold.route.adapter.dialect;
  meta.group_name = p.group;
  meta.group_ratio = p.groupRatio;
  meta.price_type = hold.price.type;
  meta.input_ratio = tier.price.input;
  meta.output_ratio = tier.price.output;
  // Which input-size tier priced it, when the price has tiers (`≤ 200000`, `> 200000`).
  if (hold.price.tiers?.length) meta.price_tier = tierLabel(hold.price.tiers, tier.index);
  // The service tier and fast mode that applied, and the multiplier they billed the whole cost at.
  if (service.tier) meta.service_tier = service.tier;
  if (service.fast) meta.speed = 'fast';
  if (service.ratio !== 1) meta.service_ratio = service.ratio;
  meta.reserved = hold.reserved;
  if (outcome.firstResponseMs !== undefined) meta.first_response = outcome.firstResponseMs;
  if (u.cachedTokens) meta.cached_tokens = u.cachedTokens;
  if (u.cacheReadTokens) meta.cached_read_tokens = u.cacheReadTokens;
  if (u.cacheWriteTokens) meta.cached_write_tokens = u.cacheWriteTokens;
  if (u.cacheWrite1hTokens) meta.cached_write_1h_tokens = u.cacheWrite1hTokens;
  if (u.reasoningTokens) meta.reasoning_tokens = u.reasoningTokens;
  const ratios = classRatios(u, tier.price);
  if (ratios) meta.extra_ratios = ratios;
  if (hold.route.upstreamModel !== hold.route.billedModel) meta.upstream_model = hold.route.upstreamModel;
  if (hold.lowered) meta.lowered_max_tokens = hold.maxOutput;
  // Upstream reported more than the request could use: billed at the bound.
  if (capped) meta.usage_capped = capped;
  // The cost was above what the balance held: billed what it covered, never below zero.
  if (uncovered !== undefined) meta.uncovered_cost = uncovered;
  // Paid from a subscription plan's window instead of the balance (the row's quota is then 0).
  if (hold.planHold) Object.assign(meta, PlanBook.logFields(hold.planHold, planPaid ?? 0));
  return meta;
}

/** The usage classes a row records, with the metadata key their ratio goes under (`cached_tokens` → `cached`). */
const RECORDED_CLASSES: Array<[keyof Usage, ExtraClass, string]> = [
  ['cachedTokens', 'cached_tokens', 'cached'],
  ['cacheReadTokens', 'cached_read_tokens', 'cached_read'],
  ['cacheWriteTokens', 'cached_write_tokens', 'cached_write'],
  ['cacheWrite1hTokens', 'cached_write_1h_tokens', 'cached_write_1h'],
  ['reasoningTokens', 'reasoning_tokens', 'reasoning'],
];

/** The ratio each class with tokens was billed at, at the chosen tier (the log detail shows them); undefined when none has tokens. */
function classRatios(u: Usage, price: Price): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const [field, k, key] of RECORDED_CLASSES) if (u[field]) (out ??= {})[key] = ratioOf(price, k);
  return out;
}

/** A failed attempt returns its whole hold; nothing is counted. */
export function releaseHold(state: RelayState, hold: Hold): void {
  if (hold.lease) state.leases.settle(hold.lease, 0);
  if (hold.planHold) state.plans.release(hold.planHold);
}
