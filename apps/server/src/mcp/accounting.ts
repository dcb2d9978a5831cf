import { LOG_TYPE } from '@one-hub/contract';
import type { RelayState } from '../relay/pipeline/relay-state.js';
import { requestLogFields } from '../relay/pipeline/accounting/settle.js';
import { holdAmount, releaseHold, type AmountHold, type TaskFacts } from '../relay/tasks/charge.js';
import { PlanBook, type PlanHold } from '../relay/pipeline/accounting/plans.js';

/**
 * What a priced tools/call holds: the server's price × the caller's group ratio, held on the
 * user's and token's balances through the relay's LeaseBook before the upstream call (so two
 * nodes on one Redis never spend a balance twice) and settled once, like a per-call model.
 */
/** `planHold` is set when a plan covering `mcp:<server>/<tool>` pays the call instead of the balance. */
export type McpHold = AmountHold;

/** The request facts of one call (the task doors' shape: the same limits and log fields apply). */
export type McpFacts = TaskFacts;

export function mcpCost(price: number, groupRatio: number): number {
  return price > 0 ? Math.max(1, Math.round(price * groupRatio)) : 0;
}

export function holdCall(state: RelayState, facts: McpFacts, price: number, model: string): Promise<McpHold> {
  return holdAmount<McpHold>(state, facts, model, { amount: mcpCost(price, facts.groupRatio) });
}

/** Nothing is charged: the hold goes back. */
export const releaseCall = releaseHold;

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
  if (facts.span) {
    // The span ends with the HTTP response (door-spans.ts); a JSON-RPC error answers 200, so the outcome is set here.
    facts.span.set({ 'one-hub.mcp.status': r.status });
    if (r.status !== 'ok') facts.span.fail({ code: r.status });
  }
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
