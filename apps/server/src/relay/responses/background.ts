import { LOG_TYPE } from '@one-hub/contract';
import { outboundRequest as request } from '../../egress/outbound.js';
import { nowSeconds } from '../../common/time.js';
import { findChannelById, type ChannelRow } from '../../db/repos/channels.js';
import { endBackground, findBackground, insertBackground, pendingUpstream, type BackgroundRow } from '../../db/repos/background-responses.js';
import { passthroughTarget } from '../legacy/passthrough.js';
import { adapterFor } from '../providers/index.js';
import { emptyUsage, type Usage } from '../providers/types.js';
import { countText } from '../tokenizer.js';
import { dispatcherFor } from '../pipeline/flow/upstream.js';
import type { Prepared } from '../pipeline/flow/prepare.js';
import type { Hold } from '../pipeline/flow/handle.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { chargeLease } from '../pipeline/accounting/settle.js';
import { boundUsage } from '../pipeline/accounting/bound-usage.js';
import { atScale, costAt, priceTier, type Price } from '../pipeline/accounting/pricing.js';
import { serviceAsk, serviceClass, type ServiceAsk } from '../pipeline/accounting/service.js';
import { LimitBook, type LimitScope } from '../pipeline/accounting/limits.js';
import { PlanBook } from '../pipeline/accounting/plans.js';
import { Poller, type RoundResult } from '../tasks/poller.js';
import { rememberSealedOutput } from './sealed-items.js';
import { interactionKey } from './owners.js';
import { interactionsHeaders, interactionsUrl } from '../providers/gemini/index.js';
import { routeTo } from '../pipeline/flow/attempt.js';
import { sendUpstream } from '../pipeline/flow/upstream.js';

/** The statuses a Responses object ends in; `queued` and `in_progress` are still running. */
export const TERMINAL = new Set(['completed', 'incomplete', 'failed', 'cancelled']);

/**
 * The statuses of a Gemini interaction still running. Every other one ends its turn: `completed`,
 * `incomplete`, `failed`, `cancelled`, and those waiting for the caller (`requires_action`: function
 * results; `requires_continuation`, `budget_exceeded`), each a new turn if continued.
 */
const INTERACTION_RUNNING = new Set(['in_progress', 'queued']);

/** Whether an interaction's status ends its turn (an unknown or missing status does not). */
export const interactionEnded = (status: unknown): boolean => typeof status === 'string' && status !== '' && !INTERACTION_RUNNING.has(status);

/** The end of a response upstream answers 404 for before the gateway saw it end. */
const EXPIRED = 'expired';

/** Rows one polling round looks at. */
const ROUND_ROWS = 100;

/** What the charge of an upstream background response is worked out from, kept with its row. */
interface Facts {
  username: string;
  tokenName: string;
  unlimited: boolean;
  group: string;
  groupRatio: number;
  model: string;
  upstreamModel: string;
  price: Price;
  ask: ServiceAsk;
  promptEstimate: number;
  maxOutput: number;
  reserved: number;
  requestId: string;
  ip: string;
  startedAt: number;
  /** Set when a plan's window paid the hold instead of the balance. */
  plan?: { subscriptionId: number; planId: number; windowStart: number; paid: number };
  /** Spending-cap windows the charge was counted in (refunded from when less is billed). */
  limitKeys: string[];
  /** A Gemini interaction's own id (its row is keyed by the id's digest, as ids are long). */
  interactionId?: string;
  /** The scopes with a TPM limit: the tokens it reports count in their window when it settles. */
  tpmScopes?: LimitScope[];
}

/**
 * Upstream accepted a `background: true` request and answered it queued: the request's worst case
 * becomes a charge now (durable, unlike an in-memory hold) and a row waits for the poller, which
 * settles the difference from the final usage. Nothing is logged until then.
 */
export async function holdInBackground(state: RelayState, p: Prepared, hold: Hold, id: string, origin: { requestId: string; ip: string }, kind: 'upstream' | 'interaction' = 'upstream'): Promise<void> {
  const { token, user } = p.caller;
  const channelId = hold.route.row.id;
  const now = nowSeconds();
  const facts: Facts = {
    username: user.username,
    tokenName: token.name,
    unlimited: token.unlimited_quota === 1,
    group: p.group,
    groupRatio: p.groupRatio,
    model: hold.route.billedModel,
    upstreamModel: hold.route.upstreamModel,
    price: hold.price,
    ask: serviceAsk(p.body),
    promptEstimate: p.promptEstimate,
    maxOutput: hold.maxOutput,
    reserved: hold.reserved,
    requestId: origin.requestId,
    ip: origin.ip,
    startedAt: p.startedAt,
    limitKeys: [],
    tpmScopes: tpmScopesOf(p.limits?.scopes),
    ...(kind === 'interaction' ? { interactionId: id } : {}),
  };
  let held = 0;
  if (hold.planHold) {
    const paid = state.plans.settle(hold.planHold, hold.reserved);
    facts.plan = { subscriptionId: hold.planHold.subscriptionId, planId: hold.planHold.planId, windowStart: hold.planHold.windowStart, paid };
  } else if (hold.lease) held = chargeLease(state, p.caller, channelId, hold.lease, hold.reserved, 1);
  else state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: facts.unlimited, channelId, billed: 0 });
  const paid = held + (facts.plan?.paid ?? 0);
  if (p.limits && paid > 0) {
    facts.limitKeys = LimitBook.spendKeys(p.limits);
    void state.limits.settled(p.limits, 0, paid).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
  }
  return backgroundRow(state, { id: kind === 'interaction' ? interactionKey(id) : id, kind, userId: user.id, tokenId: token.id, channelId, facts, held, now });
}

/** The scopes whose TPM a background response's tokens count in when it settles (none kept when no TPM applies). */
function tpmScopesOf(scopes: LimitScope[] | undefined): LimitScope[] | undefined {
  const kept = (scopes ?? []).filter((s) => s.limits.tpm);
  return kept.length ? kept : undefined;
}

async function backgroundRow(state: RelayState, r: { id: string; kind: 'upstream' | 'interaction'; userId: number; tokenId: number; channelId: number; facts: Facts; held: number; now: number }) {
  try {
    await insertBackground(state.ctx.db, {
      id: r.id,
      kind: r.kind,
      status: 'pending',
      user_id: r.userId,
      token_id: r.tokenId,
      channel_id: r.channelId,
      facts: JSON.stringify(r.facts),
      held: r.held,
      billed: 0,
      node: '',
      created_at: r.now,
      updated_at: r.now,
    });
  } catch (error) {
    // The row is what settles the charge: without it the worst case would stay charged.
    state.ctx.log.error({ err: error, id: r.id }, 'background response not recorded; its charge is returned');
    await refundRest(state, r.userId, r.tokenId, r.facts, r.channelId, r.held, r.facts.plan?.paid ?? 0, 0);
    return;
  }
  backgroundPoller(state).wake();
}

/** The text of a response's output (an interaction's steps), for counting when upstream reports no usage. */
function outputText(response: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const item of (response.output as Array<Record<string, any>> | undefined) ?? (response.steps as Array<Record<string, any>> | undefined) ?? (response.outputs as Array<Record<string, any>> | undefined) ?? []) {
    if (typeof item.text === 'string') parts.push(item.text);
    for (const c of (item.content as Array<Record<string, unknown>> | undefined) ?? []) if (typeof c.text === 'string') parts.push(c.text);
  }
  return parts.join('\n');
}

async function channelRow(state: RelayState, id: number): Promise<ChannelRow | undefined> {
  return state.selector.index.byId.get(id)?.row ?? (await findChannelById(state.ctx.db, id));
}

/**
 * Ends an upstream background response from its final object, exactly once (another node, the
 * client's own retrieve or cancel may reach the same end): bills its usage up to what was
 * charged when it was accepted, gives the rest back and writes the one consumption log row.
 * A failed response, or a cancelled one without usage, is billed nothing. Answers whether this
 * call ended it.
 */
export async function finishBackground(state: RelayState, row: BackgroundRow, response: Record<string, unknown>): Promise<boolean> {
  const status = String(response.status ?? '');
  const interaction = row.kind === 'interaction';
  const ended = interaction ? interactionEnded(status) : TERMINAL.has(status);
  if (row.status !== 'pending' || (row.kind !== 'upstream' && !interaction) || !(ended || status === EXPIRED)) return false;
  const facts = JSON.parse(row.facts) as Facts;
  const channel = await channelRow(state, Number(row.channel_id));
  const endpoint = interaction ? 'interactions' : 'responses';
  let usage: Usage | null = status === 'failed' || status === EXPIRED ? null : (adapterFor(channel?.type ?? 1)?.parseUsage(endpoint, response) ?? null);
  let estimated = false;
  if (usage && usage.promptTokens === 0 && usage.completionTokens === 0) usage = null;
  if (!usage && status !== 'failed' && status !== 'cancelled') {
    estimated = true;
    usage = { ...emptyUsage(), promptTokens: facts.promptEstimate, completionTokens: await countText(facts.model, outputText(response)) };
  }
  const paid = Number(row.held) + (facts.plan?.paid ?? 0);
  let cost = 0;
  let detail: Record<string, unknown> = {};
  if (usage) {
    const bounded = boundUsage(usage, endpoint, facts.promptEstimate, facts.maxOutput);
    const service = serviceClass(facts.price, facts.ask, bounded.usage);
    const tier = priceTier(atScale(facts.price, service.ratio), bounded.usage.promptTokens);
    cost = costAt(bounded.usage, tier.price, facts.groupRatio);
    usage = bounded.usage;
    detail = { input_ratio: tier.price.input, output_ratio: tier.price.output, ...(service.tier ? { service_tier: service.tier } : {}), ...(service.ratio !== 1 ? { service_ratio: service.ratio } : {}) };
  }
  // A response upstream no longer knows may have run to its end: the worst case stays charged.
  const charged = status === EXPIRED ? paid : Math.min(cost, paid);
  const now = nowSeconds();
  if (!(await endBackground(state.ctx.db, row.id, status, charged, now))) return false;
  const userId = Number(row.user_id);
  const tokenId = Number(row.token_id);
  const channelId = Number(row.channel_id);
  const planPaid = facts.plan ? Math.min(charged, facts.plan.paid) : 0;
  const billed = charged - planPaid;
  await refundRest(state, userId, tokenId, facts, channelId, Number(row.held), facts.plan?.paid ?? 0, charged);
  // Its tokens count in the TPM windows of the minute it settles in, as a request's do when it is answered.
  if (usage && facts.tpmScopes?.length) {
    await state.limits.add(facts.tpmScopes, usage.promptTokens + usage.completionTokens, 0).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
  }
  // Its encrypted items, resent in a later input, can be read only by this channel (sealed-items.ts).
  if (!interaction) rememberSealedOutput(state.ctx, userId, channelId, response.output);
  if (!usage || !state.ctx.options.get('LogConsumeEnabled')) return true;
  state.recorder.log({
    type: LOG_TYPE.consume,
    created_at: now,
    user_id: userId,
    username: facts.username,
    token_id: tokenId,
    token_name: facts.tokenName,
    request_time: Date.now() - facts.startedAt,
    is_stream: 0,
    source_ip: facts.ip,
    group: facts.group,
    request_id: facts.requestId,
    channel_id: channelId,
    model_name: facts.model,
    quota: billed,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cache_read_tokens: usage.cachedTokens + usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens + usage.cacheWrite1hTokens,
    reasoning_tokens: usage.reasoningTokens,
    estimated: estimated ? 1 : 0,
    content: status === EXPIRED ? `upstream no longer knows this background ${interaction ? 'interaction' : 'response'}: its hold was charged` : '',
    metadata: JSON.stringify({
      door: interaction ? '/v1beta/interactions' : '/v1/responses',
      usage_source: estimated ? 'estimated' : 'reported',
      background: true,
      ...(interaction ? { interaction_id: facts.interactionId, interaction_status: status } : { response_id: row.id, response_status: status }),
      group_name: facts.group,
      group_ratio: facts.groupRatio,
      price_type: facts.price.type,
      ...detail,
      reserved: facts.reserved,
      ...(facts.upstreamModel !== facts.model ? { upstream_model: facts.upstreamModel } : {}),
      ...(cost > paid ? { uncovered_cost: cost } : {}),
      ...(facts.plan ? PlanBook.logFields({ subscriptionId: facts.plan.subscriptionId, planId: facts.plan.planId, windowStart: facts.plan.windowStart, key: '', ttl: 0, amount: facts.plan.paid }, planPaid) : {}),
    }),
  });
  return true;
}

/** Gives back what was charged up front above `charged`: to the plan window that paid it, else to the balance and token. */
async function refundRest(state: RelayState, userId: number, tokenId: number, facts: Facts, channelId: number, held: number, planPaid: number, charged: number): Promise<void> {
  if (facts.plan) {
    const back = planPaid - Math.min(charged, planPaid);
    if (back > 0) await state.plans.refund(facts.plan.subscriptionId, facts.plan.windowStart, back).catch((e) => state.ctx.log.warn({ err: e }, 'plan window not refunded'));
    if (back > 0 && facts.limitKeys.length) await state.limits.refundSpend(state.limits.currentSpendKeys(facts.limitKeys), back).catch(() => undefined);
    return;
  }
  const back = held - Math.min(charged, held);
  if (back <= 0) return;
  // A negative charge: the balance, the token and the used counters get it back (no request is counted).
  state.recorder.settle({ userId, tokenId, unlimited: facts.unlimited, channelId, billed: -back, requests: 0 });
  if (facts.limitKeys.length) await state.limits.refundSpend(state.limits.currentSpendKeys(facts.limitKeys), back).catch((e) => state.ctx.log.warn({ err: e }, 'cap windows not refunded'));
}

/** One call to the channel keeping a response: its status and parsed JSON body (undefined when not JSON). */
export async function callKeeper(channel: ChannelRow, method: 'GET' | 'POST' | 'DELETE', path: string, accept = 'application/json') {
  const target = passthroughTarget(channel, path);
  const key = channel.key.split('\n')[0].trim();
  return request(target.url, { method, headers: { ...target.headers, accept }, dispatcher: dispatcherFor(channel.proxy, key) });
}

/**
 * Before a pending background response is deleted upstream, it is ended: read once more, and
 * cancelled when still running, so it is billed as upstream reports it (not at the hold, as a
 * response that vanished would be).
 */
export async function endBeforeDelete(state: RelayState, channel: ChannelRow, id: string, kind: 'upstream' | 'interaction' = 'upstream'): Promise<void> {
  const row = await findBackground(state.ctx.db, kind === 'interaction' ? interactionKey(id) : id);
  if (!row || row.status !== 'pending' || row.kind !== kind) return;
  const calls = kind === 'interaction' ? ([['GET', ''], ['POST', '/cancel']] as const) : ([['GET', `/v1/responses/${id}`], ['POST', `/v1/responses/${id}/cancel`]] as const);
  for (const [method, path] of calls) {
    const res = kind === 'interaction' ? await callInteractionKeeper(channel, method, `${id}${path}`) : await callKeeper(channel, method, path);
    const text = await res.body.text();
    if (res.statusCode >= 400) return;
    try {
      if (await finishBackground(state, row, JSON.parse(text) as Record<string, unknown>)) return;
    } catch {
      return;
    }
  }
}

/** One call to the Gemini channel keeping an interaction (`rest`: the id, then any `/cancel`). */
async function callInteractionKeeper(channel: ChannelRow, method: 'GET' | 'POST' | 'DELETE', rest: string) {
  const route = routeTo(channel, '');
  const [id, ...more] = rest.split('/');
  const target = { url: interactionsUrl(route.target, [encodeURIComponent(id), ...more].join('/')), headers: interactionsHeaders(route.target), body: undefined };
  return sendUpstream(target, { method, proxy: channel.proxy, proxyKey: route.target.key });
}

/** Polls one pending row; answers whether it ended. */
async function pollOne(state: RelayState, row: BackgroundRow): Promise<boolean> {
  const channel = await channelRow(state, Number(row.channel_id));
  if (!channel) return false; // the channel is gone: its row waits (an admin may restore it)
  const interactionId = row.kind === 'interaction' ? (JSON.parse(row.facts) as Facts).interactionId : undefined;
  if (row.kind === 'interaction' && !interactionId) return false;
  const res = interactionId ? await callInteractionKeeper(channel, 'GET', interactionId) : await callKeeper(channel, 'GET', `/v1/responses/${row.id}`);
  const text = await res.body.text();
  if (res.statusCode === 404) {
    // Upstream no longer knows it (deleted or expired): the worst case it was charged stays charged.
    return finishBackground(state, row, { status: EXPIRED, output: [] });
  }
  if (res.statusCode >= 400) return false;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return false;
  }
  return finishBackground(state, row, json);
}

/** One round of the background poller: every pending upstream row is asked for once. */
async function backgroundRound(state: RelayState): Promise<RoundResult> {
  const rows = await pendingUpstream(state.ctx.db, ROUND_ROWS);
  let ended = 0;
  for (const row of rows) {
    try {
      if (await pollOne(state, row)) ended++;
    } catch (error) {
      state.ctx.log.warn({ err: error, id: row.id }, 'background response poll failed');
    }
  }
  return { pending: rows.length - ended, tasks: rows.length, upstreamCalls: rows.length };
}

const pollers = new WeakMap<RelayState, Poller>();

/** The poller settling upstream background responses (master node; resumes pending rows at start-up). */
export function backgroundPoller(state: RelayState): Poller {
  let p = pollers.get(state);
  if (p) return p;
  p = new Poller(state.ctx, 'responses-background', () => backgroundRound(state));
  pollers.set(state, p);
  p.start();
  const poller = p;
  state.ctx.onClose.unshift(() => poller.close());
  return p;
}
