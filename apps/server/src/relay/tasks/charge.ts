import { LOG_TYPE } from '@one-hub/contract';
import { HubError } from '../../common/errors.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { Caller } from '../pipeline/flow/caller.js';
import type { LeaseHold } from '../pipeline/accounting/leases.js';
import { unitsCost, type Price } from '../pipeline/accounting/pricing.js';
import { LimitBook, type LimitHold } from '../pipeline/accounting/limits.js';
import { requestLogFields } from '../pipeline/accounting/settle.js';
import { holdOnPlan } from '../pipeline/accounting/plan-hold.js';
import { PlanBook, type PlanHold } from '../pipeline/accounting/plans.js';
import type { DoorSpan } from '../../telemetry/tracing.js';

/** Who submits a task and how their group prices it. */
export interface TaskFacts {
  caller: Caller;
  group: string;
  groupRatio: number;
  startedAt: number;
  stream: false;
  requestId: string;
  ip: string;
  /** What the submission holds under its request limits (limits.ts). */
  limits?: LimitHold;
  /** The request's span, only while tracing is on (telemetry/door-spans.ts). */
  span?: DoorSpan;
}

/** Quota held for one submission; settled or released exactly once. */
export interface TaskHold extends AmountHold {
  model: string;
  channel: ChannelRow;
  price: Price;
  /** The roll-up row the balance charge was counted in, once settled with a consumption row. */
  stat?: ChargeStat;
}

/** A charge's roll-up key: the consumption row's UTC day and model (what a refund takes back out of). */
export interface ChargeStat {
  date: string;
  model_name: string;
}

/** The task row's plan columns (migration 0020): zero unless a plan's window paid the settled task. */
export function planColumns(hold: TaskHold | undefined) {
  const h = hold?.planPaid ? hold.planHold : undefined;
  return { subscription_id: h?.subscriptionId ?? 0, plan_window: h?.windowStart ?? 0, plan_quota: h ? hold!.planPaid! : 0 };
}

/** The task row's `limit_windows` (migration 0023): the spending-cap windows its charge was counted in, for a later refund. */
export function limitColumns(facts: TaskFacts, hold: TaskHold | undefined, billed: number) {
  const keys = billed + (hold?.planPaid ?? 0) > 0 ? LimitBook.spendKeys(facts.limits) : [];
  return { limit_windows: keys.length ? JSON.stringify(keys) : null };
}

/** The task row's `charge_stat` (migration 0027): where its balance charge was counted in the roll-ups. */
export function chargeColumns(hold: TaskHold | undefined) {
  return { charge_stat: hold?.stat ? JSON.stringify(hold.stat) : null };
}

/**
 * What one task costs: a per-call price counts 1000 × ratio per unit (relay.md §4.7); a
 * token price is read as 1000 tokens per unit, so a token-priced task model is not nearly free
 * (the original's defect, relay.md §10.11). `units` is 1, or the seconds of a video.
 */
export function taskCost(price: Price, groupRatio: number, units = 1): number {
  return unitsCost(price, groupRatio, units);
}

/**
 * Holds the task's cost before the upstream call: on the window of a plan that covers the model
 * (the same hold as the doors'), else on the user and token (the relay's own leases).
 */
export async function holdTask(state: RelayState, facts: TaskFacts, channel: ChannelRow, model: string, units = 1): Promise<TaskHold> {
  const price = state.prices.priceOf(model);
  return holdAmount(state, facts, model, { model, channel, price, amount: taskCost(price, facts.groupRatio, units) });
}

/** What a per-call hold (a task, an MCP tool call) carries: the amount and where it is held. */
export interface AmountHold {
  amount: number;
  lease?: LeaseHold;
  planHold?: PlanHold;
  planPaid?: number;
  done?: boolean;
}

/**
 * Holds `hold.amount` before the upstream call: on the window of a plan that covers `model` (the
 * same hold as the doors'), else on the user and token (the relay's own leases).
 */
export async function holdAmount<H extends AmountHold>(state: RelayState, facts: TaskFacts, model: string, hold: H): Promise<H> {
  if (hold.amount <= 0) return hold;
  hold.planHold = await holdOnPlan(state, { caller: facts.caller, group: facts.group, model }, hold.amount);
  if (hold.planHold) return hold;
  const { token, user } = facts.caller;
  const lease = await state.leases.hold(user.id, token.id, token.unlimited_quota !== 1, hold.amount);
  if (lease === 'token') throw new HubError(403, '令牌额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  if (lease === 'user') throw new HubError(402, '用户额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  hold.lease = lease;
  return hold;
}

/** Nothing is charged: the whole hold goes back (once). */
export function releaseHold(state: RelayState, hold: AmountHold | undefined): void {
  if (!hold || hold.done) return;
  hold.done = true;
  if (hold.lease) state.leases.settle(hold.lease, 0);
  if (hold.planHold) state.plans.release(hold.planHold);
}

export const releaseTask: (state: RelayState, hold: TaskHold | undefined) => void = releaseHold;

export function settleTask(state: RelayState, facts: TaskFacts, hold: TaskHold, note: string): number {
  if (hold.done) return 0;
  hold.done = true;
  const { token, user } = facts.caller;
  const billed = hold.lease ? state.leases.settle(hold.lease, hold.amount) : 0;
  const planPaid = hold.planHold ? state.plans.settle(hold.planHold, hold.amount) : 0;
  hold.planPaid = planPaid;
  state.recorder.settle({
    userId: user.id,
    tokenId: token.id,
    unlimited: token.unlimited_quota === 1,
    channelId: hold.channel.id,
    billed,
    spend: hold.lease && state.leases.spendTargets(hold.lease),
  });
  if (facts.limits && billed + planPaid > 0) void state.limits.settled(facts.limits, 0, billed + planPaid).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
  if (state.ctx.options.get('LogConsumeEnabled')) {
    const fields = requestLogFields(facts, facts.requestId, facts.ip);
    // The recorder counts this row in the roll-ups under its UTC day and model; a refund takes it back out there.
    if (billed > 0) hold.stat = { date: new Date(fields.created_at * 1000).toISOString().slice(0, 10), model_name: hold.model };
    state.recorder.log({
      type: LOG_TYPE.consume,
      ...fields,
      channel_id: hold.channel.id,
      model_name: hold.model,
      quota: billed,
      content: note,
      metadata: JSON.stringify({
        price_type: hold.price.type,
        input_ratio: hold.price.input,
        group_ratio: facts.groupRatio,
        task: true,
        ...(hold.planHold ? PlanBook.logFields(hold.planHold, planPaid) : {}),
      }),
    });
  }
  return billed;
}

