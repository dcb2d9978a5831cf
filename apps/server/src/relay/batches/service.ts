import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOG_TYPE } from '@one-hub/contract';
import { HubError } from '../../common/errors.js';
import { parseJsonOr } from '../../common/json.js';
import { nowSeconds } from '../../common/time.js';
import { findChannelById, type ChannelRow } from '../../db/repos/channels.js';
import { findUserById } from '../../db/repos/users.js';
import {
  findOwnMessageBatch,
  insertMessageBatch,
  pageOwnMessageBatches,
  settleMessageBatch,
  updateMessageBatch,
  type MessageBatchRow,
} from '../../db/repos/message-batches.js';
import { answerError, isAdmin, outsideFailure, unreachable } from '../../egress/failure.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { chargeLease } from '../pipeline/accounting/settle.js';
import { LimitBook } from '../pipeline/accounting/limits.js';
import { routeTo } from '../pipeline/flow/attempt.js';
import { anthropic, anthropicHeaders } from '../providers/anthropic/index.js';
import type { InboundHeaders } from '../providers/types.js';
import { taskFacts, taskChannel } from '../tasks/facts.js';
import type { TaskFacts } from '../tasks/charge.js';
import { withTaskLimits } from '../tasks/limits.js';
import { refuseTask } from '../tasks/refuse.js';
import { streamResult } from '../tasks/results.js';
import { callTaskUpstream, type TaskAnswer } from '../tasks/upstream.js';
import { taskPollers } from '../tasks/registry.js';
import { batchRatio, batchView, priceResults, readCreate, requestWorstCase, splitCharge, type BatchPricing } from './plan.js';
import { atScale } from '../pipeline/accounting/pricing.js';

/**
 * Anthropic Message Batches (issue 36 item 5), on Anthropic channels only. Creation holds the
 * batch's worst case and takes it from the balance as the tasks do; when upstream reports the
 * batch ended (a client's retrieve, or the poller, also after a restart) its results are read,
 * the succeeded messages billed at the channel's batch ratio and the rest of the hold given back.
 * Every read is limited to the creator's own batches.
 */

const TIMEOUT_MS = 60_000;
const DOOR = '/v1/messages/batches';

/** What a batch id can look like (Anthropic's are `msgbatch_…`); anything else is unknown without a lookup. */
const BATCH_ID = /^[A-Za-z0-9_-]{1,128}$/;
const notFound = (id: string) => new HubError(404, `No message batch found with id '${id.slice(0, 80)}'`, { type: 'not_found_error', code: 'not_found_error' });

/** Where a client fetches results: the gateway itself, as the request reached it. */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** The path of a batch under the channel's Anthropic base URL. */
export function batchPath(row: ChannelRow, rest = '') {
  const base = routeTo(row, '').target.baseUrl.replace(/\/v1$/, '');
  return `${base}/v1/messages/batches${rest}`;
}

/** The channel's auth and version headers; the caller's anthropic-version and anthropic-beta are forwarded. */
export const headersFor = (row: ChannelRow, inbound: InboundHeaders = {}) => anthropicHeaders(routeTo(row, '').target, inbound);

/** One call to the batch's channel; an unreachable upstream or an error answer reaches the caller mapped (no key or host). */
async function ask(row: ChannelRow, method: 'GET' | 'POST' | 'DELETE', rest: string, inbound: InboundHeaders, admin: boolean, body?: unknown): Promise<TaskAnswer> {
  const answer = await callTaskUpstream(row, batchPath(row, rest), { method, headers: headersFor(row, inbound), body, timeoutMs: TIMEOUT_MS }).catch((error) => {
    throw outsideFailure(unreachable(error), row, admin);
  });
  if (answer.status !== 200 || !answer.json || typeof answer.json !== 'object') throw outsideFailure(answerError(answer.status, answer.text, answer.json), row, admin);
  return answer;
}

/** The channel of a batch: from the routing index, else the database (a disabled channel still answers for its batches). */
export async function channelOf(state: RelayState, id: number): Promise<ChannelRow | undefined> {
  return state.selector.index.byId.get(id)?.row ?? (await findChannelById(state.ctx.db, id));
}

/** The caller's own batch and its channel; another user's id is answered exactly as an unknown one. */
async function ownBatch(state: RelayState, req: FastifyRequest) {
  const facts = await taskFacts(state, req, 'claude', false);
  const id = (req.params as { id: string }).id;
  const row = BATCH_ID.test(id) ? await findOwnMessageBatch(state.ctx.db, facts.caller.user.id, id) : undefined;
  if (!row) throw notFound(id);
  const channel = await channelOf(state, row.channel_id);
  if (!channel) throw new HubError(503, 'the channel of this message batch is gone', { type: 'api_error', code: 'channel_not_found' });
  return { facts, row, channel, admin: isAdmin(facts.caller.user.role) };
}

/**
 * The Anthropic channel all of a batch's requests run on (one upstream batch has one key). A
 * model served only by other families is a 400: they have no batch API to pass it to.
 */
async function batchChannel(state: RelayState, facts: TaskFacts, models: string[]): Promise<ChannelRow> {
  const types = anthropic.types;
  const onOtherFamily = (model: string) => state.selector.candidates(facts.group, model, { exclude: new Set(), stream: false, hasTools: false }).length > 0;
  let channel: ChannelRow;
  try {
    channel = await taskChannel(state, facts, models[0], types);
  } catch (error) {
    if (error instanceof HubError && error.code === 'no_available_channel' && onOtherFamily(models[0])) {
      throw new HubError(400, `Message Batches are served by Anthropic channels only; model ${models[0]} is not on an Anthropic channel`, { type: 'invalid_request_error', code: 'batches_not_supported' });
    }
    throw error;
  }
  if (facts.caller.pinnedChannel) return channel;
  for (const model of models.slice(1)) {
    const served = state.selector.candidates(facts.group, model, { exclude: new Set(), stream: false, hasTools: false }).some((c) => c.row.id === channel.id);
    if (!served) throw new HubError(400, `all requests of a batch run on one Anthropic channel: model ${model} is not on the channel serving ${models[0]}`, { type: 'invalid_request_error', code: 'batches_mixed_channels' });
  }
  return channel;
}

export async function createBatch(state: RelayState, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const facts = await taskFacts(state, req, 'claude');
  const requests = readCreate(req.body);
  const models = [...new Set(requests.map((r) => r.model))];
  return withTaskLimits(state, facts, models[0], async () => {
    const channel = await batchChannel(state, facts, models);
    const ratio = batchRatio(routeTo(channel, models[0]).target.plugin);
    const names = new Map(models.map((m) => [m, routeTo(channel, m)]));
    let held = 0;
    const priced: Record<string, string> = {};
    const upstream = requests.map((r) => {
      const route = names.get(r.model)!;
      priced[r.customId] = route.billedModel;
      held += requestWorstCase(r, atScale(state.prices.priceOf(route.billedModel), ratio), facts.groupRatio);
      return { custom_id: r.customId, params: route.upstreamModel === r.model ? r.params : { ...r.params, model: route.upstreamModel } };
    });
    const { token, user } = facts.caller;
    const lease = held > 0 ? await state.leases.hold(user.id, token.id, token.unlimited_quota !== 1, held) : undefined;
    if (lease === 'token') throw new HubError(403, '令牌额度不足', { type: 'permission_error', code: 'insufficient_quota_local' });
    if (lease === 'user') throw new HubError(402, '用户额度不足', { type: 'billing_error', code: 'insufficient_quota_local' });
    let answer: TaskAnswer | undefined;
    let failure: HubError | undefined;
    try {
      answer = await callTaskUpstream(channel, batchPath(channel), { method: 'POST', headers: headersFor(channel, req.headers), body: { requests: upstream }, timeoutMs: TIMEOUT_MS, span: facts.span });
    } catch (error) {
      failure = unreachable(error);
    }
    const batch = answer?.status === 200 && answer.json && typeof answer.json.id === 'string' ? (answer.json as Record<string, unknown>) : undefined;
    if (!batch) {
      if (lease) state.leases.settle(lease, 0);
      const hub = failure ?? answerError(answer!.status, answer!.text, answer!.json);
      throw refuseTask(state, facts, channel, hub, DOOR, { model: models[0], channel, price: state.prices.priceOf(models[0]), amount: held });
    }
    // Accepted: the worst case is taken from the balance now; what the results do not cost comes back when the batch ends.
    const taken = lease ? chargeLease(state, facts.caller, channel.id, lease, held, 1) : 0;
    if (facts.limits && taken > 0) void state.limits.settled(facts.limits, 0, taken).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
    const pricing: BatchPricing = { ratio, groupRatio: facts.groupRatio, models: priced, caps: taken > 0 ? LimitBook.spendKeys(facts.limits) : [] };
    const now = nowSeconds();
    await insertMessageBatch(state.ctx.db, {
      batch_id: batch.id as string,
      user_id: user.id,
      token_id: token.id,
      token_name: token.name,
      group: facts.group,
      channel_id: channel.id,
      held: taken,
      status: String(batch.processing_status ?? 'in_progress'),
      requests: JSON.stringify(pricing),
      batch: JSON.stringify(batch),
      request_id: req.id,
      created_at: now,
      updated_at: now,
    });
    taskPollers(state).batches.wake();
    return reply.send(batchView(batch, originOf(req)));
  });
}

/**
 * Records what upstream said of a batch and, once it has ended, bills it from its results (once:
 * the row is settled in the same transaction that gives the unused hold back).
 */
export async function observeBatch(state: RelayState, row: MessageBatchRow, channel: ChannelRow, batch: Record<string, unknown>, inbound: InboundHeaders = {}): Promise<void> {
  const status = String(batch.processing_status ?? row.status);
  await updateMessageBatch(state.ctx.db, row.id, { status, batch: JSON.stringify(batch), updated_at: nowSeconds() });
  if (status === 'ended' && !row.settled_at) await settleBatch(state, row, channel, inbound);
}

/** Reads an ended batch's results, bills its succeeded messages and gives the rest of the hold back, with one log row per model. */
export async function settleBatch(state: RelayState, row: MessageBatchRow, channel: ChannelRow | undefined, inbound: InboundHeaders = {}): Promise<boolean> {
  let results = '';
  if (channel) {
    const answer = await callTaskUpstream(channel, batchPath(channel, `/${encodeURIComponent(row.batch_id)}/results`), { method: 'GET', headers: headersFor(channel, inbound), timeoutMs: TIMEOUT_MS });
    if (answer.status !== 200) throw outsideFailure(answerError(answer.status, answer.text, answer.json), channel, false);
    results = answer.text;
  }
  const pricing = parseJsonOr<BatchPricing>(row.requests, { ratio: 1, groupRatio: 1, models: {} });
  const priced = priceResults(results, pricing, (m) => state.prices.priceOf(m));
  const rows = splitCharge(priced.byModel, row.held);
  const billed = rows.reduce((sum, r) => sum + r.quota, 0);
  if (!(await settleMessageBatch(state.ctx.db, row, billed))) return false;
  const back = row.held - billed;
  if (back > 0 && pricing.caps?.length) {
    await state.limits.refundSpend(state.limits.currentSpendKeys(pricing.caps), back).catch((e) => state.ctx.log.warn({ err: e, batch: row.batch_id }, 'cap windows not refunded'));
  }
  if (!state.ctx.options.get('LogConsumeEnabled')) return true;
  const user = await findUserById(state.ctx.db, row.user_id);
  for (const r of rows) {
    const price = state.prices.priceOf(r.model);
    state.recorder.log({
      type: LOG_TYPE.consume,
      created_at: nowSeconds(),
      user_id: row.user_id,
      username: user?.username ?? '',
      token_id: row.token_id,
      token_name: row.token_name,
      channel_id: row.channel_id,
      model_name: r.model,
      quota: r.quota,
      prompt_tokens: r.promptTokens,
      completion_tokens: r.completionTokens,
      cache_read_tokens: r.cacheReadTokens,
      cache_write_tokens: r.cacheWriteTokens,
      request_time: 0,
      is_stream: 0,
      group: row.group,
      request_id: row.request_id,
      content: `message batch ${row.batch_id}`,
      metadata: JSON.stringify({
        door: DOOR,
        batch_id: row.batch_id,
        batch_ratio: pricing.ratio,
        group_ratio: pricing.groupRatio,
        price_type: price.type,
        input_ratio: price.input,
        output_ratio: price.output,
        succeeded: r.succeeded,
        reserved: row.held,
        ...(r.quota < r.cost ? { uncovered_cost: r.cost } : {}),
      }),
    });
  }
  return true;
}

export async function retrieveBatch(state: RelayState, req: FastifyRequest): Promise<Record<string, unknown>> {
  const { row, channel, admin } = await ownBatch(state, req);
  const answer = await ask(channel, 'GET', `/${encodeURIComponent(row.batch_id)}`, req.headers, admin);
  await observeBatch(state, row, channel, answer.json, req.headers);
  return batchView(answer.json, originOf(req));
}

/** The caller's batches, newest first, as last seen upstream (the poller keeps them current). */
export async function listBatches(state: RelayState, req: FastifyRequest): Promise<Record<string, unknown>> {
  const facts = await taskFacts(state, req, 'claude', false);
  const q = req.query as { limit?: string; after_id?: string; before_id?: string };
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new HubError(400, 'limit: must be a whole number from 1 to 1000', { type: 'invalid_request_error' });
  for (const cursor of [q.after_id, q.before_id]) if (cursor !== undefined && !BATCH_ID.test(cursor)) throw new HubError(400, 'after_id and before_id must be message batch ids', { type: 'invalid_request_error' });
  if (q.after_id !== undefined && q.before_id !== undefined) throw new HubError(400, 'after_id and before_id cannot be given together', { type: 'invalid_request_error' });
  const rows = await pageOwnMessageBatches(state.ctx.db, facts.caller.user.id, { limit: limit + 1, afterId: q.after_id, beforeId: q.before_id });
  const more = rows.length > limit;
  const page = q.before_id ? rows.slice(rows.length - Math.min(limit, rows.length)) : rows.slice(0, limit);
  const origin = originOf(req);
  const data = page.map((r) => batchView(parseJsonOr<Record<string, unknown>>(r.batch, { id: r.batch_id, type: 'message_batch', processing_status: r.status }), origin));
  return { data, has_more: more, first_id: (data[0]?.id as string) ?? null, last_id: (data.at(-1)?.id as string) ?? null };
}

/** The results file, piped from the batch's channel as it arrives. */
export async function batchResults(state: RelayState, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { row, channel } = await ownBatch(state, req);
  return streamResult(channel, batchPath(channel, `/${encodeURIComponent(row.batch_id)}/results`), req, reply, headersFor(channel, req.headers));
}

/** Forwards the cancel; the poller bills what ended once upstream reports the batch ended. */
export async function cancelBatch(state: RelayState, req: FastifyRequest): Promise<Record<string, unknown>> {
  const { row, channel, admin } = await ownBatch(state, req);
  const answer = await ask(channel, 'POST', `/${encodeURIComponent(row.batch_id)}/cancel`, req.headers, admin);
  await observeBatch(state, row, channel, answer.json, req.headers);
  taskPollers(state).batches.wake();
  return batchView(answer.json, originOf(req));
}

/** Deletes an ended batch upstream (upstream refuses one still processing); it is billed first if it was not yet. */
export async function deleteBatch(state: RelayState, req: FastifyRequest): Promise<Record<string, unknown>> {
  const { row, channel, admin } = await ownBatch(state, req);
  if (!row.settled_at) {
    const seen = await ask(channel, 'GET', `/${encodeURIComponent(row.batch_id)}`, req.headers, admin);
    await observeBatch(state, row, channel, seen.json, req.headers);
  }
  const answer = await ask(channel, 'DELETE', `/${encodeURIComponent(row.batch_id)}`, req.headers, admin);
  await updateMessageBatch(state.ctx.db, row.id, { deleted_at: nowSeconds(), updated_at: nowSeconds() });
  return answer.json;
}
