import { LOG_TYPE } from '@one-hub/contract';
import { HubError } from '../common/errors.js';
import type { RelayState } from '../relay/pipeline/relay-state.js';
import type { LeaseHold } from '../relay/pipeline/accounting/leases.js';
import { requestLogFields } from '../relay/pipeline/accounting/settle.js';
import type { TaskFacts } from '../relay/tasks/charge.js';
import { holdOnPlan } from '../relay/pipeline/accounting/plan-hold.js';
import { PlanBook, type PlanHold } from '../relay/pipeline/accounting/plans.js';

/**
 * What a priced tools/call holds: the server's price × the caller's group ratio, held on the
 * user's and token's balances through the relay's LeaseBook before the upstream call (so two
 * nodes on one Redis never spend a balance twice) and settled once, like a per-call model.
 */
export interface McpHold {
  amount: number;
  lease?: LeaseHold;
  /** Set when a plan covering `mcp:<server>/<tool>` pays the call instead of the balance. */
  planHold?: PlanHold;
  planPaid?: number;
  done?: boolean;
}

/** The request facts of one call (the task doors' shape: the same limits and log fields apply). */
export type McpFacts = TaskFacts;

export function mcpCost(price: number, groupRatio: number): number {
  return price > 0 ? Math.max(1, Math.round(price * groupRatio)) : 0;
}

export async function holdCall(state: RelayState, facts: McpFacts, price: number, model: string): Promise<McpHold> {
  const amount = mcpCost(price, facts.groupRatio);
  const hold: McpHold = { amount };
  if (amount <= 0) return hold;
  // The same plan step as every billed relay path, then the balance.
  hold.planHold = await holdOnPlan(state, { caller: facts.caller, group: facts.group, model }, amount);
  if (hold.planHold) return hold;
  const { token, user } = facts.caller;
  const lease = await state.leases.hold(user.id, token.id, token.unlimited_quota !== 1, amount);
  if (lease === 'token') throw new HubError(403, '令牌额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  if (lease === 'user') throw new HubError(402, '用户额度不足', { type: 'insufficient_quota', code: 'insufficient_quota_local' });
  hold.lease = lease;
  return hold;
}

/** Nothing is charged: the hold goes back. */
export function releaseCall(state: RelayState, hold: McpHold | undefined): void {
  if (!hold || hold.done) return;
  hold.done = true;
  if (hold.lease) state.leases.settle(hold.lease, 0);
  if (hold.planHold) state.plans.release(hold.planHold);
}

/** The hold becomes the charge (once); answers what the balance paid. */
export function settleCall(state: RelayState, facts: McpFacts, hold: McpHold): number {
  if (hold.done) return 0;
  hold.done = true;
  const { token, user } = facts.caller;
  const billed = hold.lease ? state.leases.settle(hold.lease, hold.amount) : 0;
  hold.planPaid = hold.planHold ? state.plans.settle(hold.planHold, hold.amount) : 0;
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: 0, billed, spend: hold.lease && state.leases.spendTargets(hold.lease) });
  if (facts.limits && billed + hold.planPaid > 0) void state.limits.settled(facts.limits, 0, billed + hold.planPaid).catch((e) => state.ctx.log.warn({ err: e }, 'limit counters not updated'));
  return billed;
}

export interface CallRecord {
  server: string;
  tool: string;
  durationMs: number;
  /** ok | tool_error | refused | upstream_error | timeout | too_large */
  status: string;
  argumentBytes: number;
  resultBytes: number;
  billed: number;
  price: number;
  /** The plan hold that paid it, if one did. */
  plan?: { hold: PlanHold; paid: number };
  protocolVersion: string;
  /** For failures: what the caller was told, and the admin's text (upstream's own words, scrubbed). */
  told?: string;
  adminText?: string;
}

/** The call's log row: a consumption row when it was answered, an error row when it failed. */
export function logCall(state: RelayState, facts: McpFacts, r: CallRecord): void {
  const fields = { ...requestLogFields(facts, facts.requestId, facts.ip), request_time: r.durationMs, model_name: `mcp:${r.server}/${r.tool}`, channel_id: 0 };
  const meta = {
    door: 'mcp',
    mcp_server: r.server,
    mcp_tool: r.tool,
    mcp_status: r.status,
    duration_ms: r.durationMs,
    argument_bytes: r.argumentBytes,
    result_bytes: r.resultBytes,
    price: r.price,
    group_ratio: facts.groupRatio,
    protocol_version: r.protocolVersion,
    ...(r.plan ? PlanBook.logFields(r.plan.hold, r.plan.paid) : {}),
  };
  if (r.told === undefined) {
    if (!state.ctx.options.get('LogConsumeEnabled')) return;
    state.recorder.log({ type: LOG_TYPE.consume, ...fields, quota: r.billed, content: `MCP ${r.server}/${r.tool}`, metadata: JSON.stringify(meta) });
    return;
  }
  if (!state.ctx.options.get('LogErrorEnabled')) return;
  const status = r.status === 'timeout' ? 504 : 502;
  state.recorder.log({
    type: LOG_TYPE.error,
    ...fields,
    quota: 0,
    content: (r.adminText ?? '').slice(0, 4000),
    metadata: JSON.stringify({ ...meta, status, caller_status: status, caller_code: r.status, reason: r.told.slice(0, 500) }),
  });
}
