import { logMessage } from '@one-hub/contract';
import type { MidjourneyRow } from '../../../db/repos/tasks.js';
import { pendingMidjourneys, updatePendingMidjourney } from '../../../db/repos/task-rows.js';
import { failTask } from '../fail.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { timedOutReason, type RoundResult } from '../poller.js';
import { baseOf, callTaskUpstream, channelKey } from '../upstream.js';
import { MJ_CHANNEL_TYPE, isFailed } from './mapping.js';
import { scrubIdentity } from '../../../egress/failure.js';
import { taskUpdate, type UpstreamMjTask } from './task-json.js';

const ROUND_LIMIT = 500;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * Applies one upstream view of a task to its row: progress, result, or failure with refund. Answers
 * whether it ended. The failure reason is the caller's to read, so it is scrubbed of keys and hosts.
 */
export async function applyUpstream(state: RelayState, channel: ChannelRow, row: MidjourneyRow, task: UpstreamMjTask): Promise<boolean> {
  const set = taskUpdate(task);
  if (isFailed(set.status ?? row.status, set.progress ?? row.progress, set.fail_reason ?? '')) {
    await failTask(state, row, scrubIdentity(set.fail_reason || 'upstream task failed', channel, false));
    return true;
  }
  if (set.status === 'SUCCESS') set.progress = '100%';
  await updatePendingMidjourney(state.ctx.db, row.id, set);
  return set.progress === '100%';
}

async function pollChannel(state: RelayState, channel: ChannelRow, rows: MidjourneyRow[]): Promise<number> {
  let ended = 0;
  const answer = await callTaskUpstream(channel, `${baseOf(channel)}/mj/task/list-by-condition`, {
    method: 'POST',
    headers: { 'mj-api-secret': channelKey(channel) },
    body: { ids: rows.map((r) => r.mj_id) },
    timeoutMs: FETCH_TIMEOUT_MS,
  }).catch((error) => {
    state.ctx.log.warn({ err: error, channel: channel.id }, 'midjourney task fetch failed');
    return undefined;
  });
  const byId = new Map<string, UpstreamMjTask>();
  if (answer && answer.status === 200 && Array.isArray(answer.json)) for (const t of answer.json) if (t && typeof t.id === 'string') byId.set(t.id, t);
  const deadline = Date.now() - state.ctx.config.TASK_TIMEOUT_SECONDS * 1000;
  for (const row of rows) {
    const task = byId.get(row.mj_id);
    if (task && (await applyUpstream(state, channel, row, task))) ended++;
    else if (row.submit_time < deadline && (await failTask(state, row, timedOutReason(state.ctx.config.TASK_TIMEOUT_SECONDS)))) ended++;
  }
  return ended;
}

/** One round: every pending task, one batch fetch per channel (relay.md §6.1 "Polling loop"). */
export function midjourneyRound(state: RelayState): () => Promise<RoundResult> {
  return async () => {
    const rows = await pendingMidjourneys(state.ctx.db, ROUND_LIMIT);
    const byChannel = new Map<number, MidjourneyRow[]>();
    let ended = 0;
    let upstreamCalls = 0;
    for (const row of rows) {
      if (!row.mj_id) {
        if (await failTask(state, row, 'upstream returned no task id')) ended++;
        continue;
      }
      byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    }
    for (const [channelId, list] of byChannel) {
      const channel = state.selector.index.byId.get(channelId)?.row;
      if (!channel || channel.type !== MJ_CHANNEL_TYPE) {
        for (const row of list) if (await failTask(state, row, '渠道不存在或已禁用')) ended++;
        continue;
      }
      upstreamCalls++;
      ended += await pollChannel(state, channel, list);
    }
    return { pending: rows.length - ended, tasks: rows.length, upstreamCalls };
  };
}
