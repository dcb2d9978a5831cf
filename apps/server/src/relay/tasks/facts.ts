import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CHANNEL_STATUS } from '@one-hub/contract';
import { HubError } from '../../common/errors.js';
import { findChannelById, type ChannelRow } from '../../db/repos/channels.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { authenticate, checkModelAllowed, type KeyReader } from '../pipeline/flow/caller.js';
import { callerGroup, checkRate } from '../pipeline/flow/prepare.js';
import { pickWeighted } from '../pipeline/routing/channel-index.js';
import type { TaskFacts } from './charge.js';
import { channelKey } from './upstream.js';
import { openDoorSpan } from '../../telemetry/door-spans.js';

/** Authenticates a task request and resolves its group (relay.md §1.6); `limited` applies the rate limit. */
export async function taskFacts(state: RelayState, req: FastifyRequest, reader: KeyReader, limited = true): Promise<TaskFacts> {
  const startedAt = Date.now();
  const caller = await authenticate(state.ctx, state.callers, req, reader);
  const group = callerGroup(caller);
  const groupRow = state.groups.get(group);
  if (!groupRow) throw new HubError(403, `分组 ${group} 不存在`, { type: 'one_hub_error', code: 'group_not_found' });
  if (limited) await checkRate(state, caller.user.id, groupRow.api_rate);
  return { caller, group, groupRatio: Number(groupRow.ratio), startedAt, stream: false, requestId: req.id, ip: req.ip, span: taskSpan(state, req) };
}

/** The span of a task or batch request, opened once authenticated (a refusal before is the door's refused span). */
function taskSpan(state: RelayState, req: FastifyRequest) {
  if (!state.ctx.tracer) return undefined;
  const route = req.routeOptions.url ?? '';
  const what = route.includes('/batches') ? 'batch' : 'task';
  const operation = `${what}_${req.method === 'POST' ? 'submit' : req.method === 'DELETE' ? 'delete' : 'read'}`;
  return openDoorSpan(state.ctx, req, `${operation} ${route}`, { 'gen_ai.operation.name': operation });
}

/** A channel of one of `types` serving the model in the caller's group (or its pinned or original channel). */
export async function taskChannel(state: RelayState, facts: TaskFacts, model: string, types: number[], pinned?: number, tried: Set<number> = new Set()): Promise<ChannelRow> {
  const row = await pickTaskChannel(state, facts, model, types, pinned, tried);
  facts.span?.set({ 'gen_ai.request.model': model, 'one-hub.channel.id': row.id, 'one-hub.channel.type': row.type });
  return row;
}

async function pickTaskChannel(state: RelayState, facts: TaskFacts, model: string, types: number[], pinned: number | undefined, tried: Set<number>): Promise<ChannelRow> {
  checkModelAllowed(facts.caller, model);
  const pin = pinned ?? facts.caller.pinnedChannel;
  if (pin) {
    const row = await findChannelById(state.ctx.db, pin);
    if (!row || !types.includes(row.type)) throw new HubError(503, '无效的渠道 Id', { type: 'one_hub_error' });
    if (row.status !== CHANNEL_STATUS.enabled) throw new HubError(503, '该渠道已被禁用', { type: 'one_hub_error' });
    return row;
  }
  const usable = (group: string) =>
    state.selector.candidates(group, model, { exclude: new Set([...tried, ...(facts.caller.excludedChannel ? [facts.caller.excludedChannel] : [])]), stream: false, hasTools: false }).filter((c) => types.includes(c.row.type));
  const picked = pickWeighted(usable(facts.group));
  if (picked) return picked.row;
  // The token's backup group serves when its group has no channel left, at its own ratio (relay.md §3.6).
  const backup = facts.caller.token.backup_group;
  let named = facts.group;
  if (backup && backup !== facts.group) {
    named = backup;
    const groupRow = state.groups.get(backup);
    const other = groupRow && pickWeighted(usable(backup));
    if (other && groupRow) {
      facts.group = backup;
      facts.groupRatio = Number(groupRow.ratio);
      return other.row;
    }
  }
  throw new HubError(503, `当前分组 ${named} 下对于模型 ${model} 无可用渠道`, { type: 'one_hub_error', code: 'no_available_channel' });
}

/** Signed, expiring links to a task's result, keyed by the task channel's secret (valid on every node). */
export function signLink(row: ChannelRow, subject: string, expires: number): string {
  return createHmac('sha256', channelKey(row)).update(`${subject}.${expires}`).digest('base64url');
}

export function checkLink(row: ChannelRow, subject: string, expires: number, sig: string): boolean {
  if (!Number.isFinite(expires) || expires * 1000 < Date.now()) return false;
  const want = Buffer.from(signLink(row, subject, expires));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
