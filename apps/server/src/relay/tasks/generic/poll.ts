import { logMessage } from '@one-hub/contract';
import { nowSeconds } from '../../../common/time.js';
import type { TaskRow } from '../../../db/repos/tasks.js';
import { pendingTasks, updatePendingTask } from '../../../db/repos/task-rows.js';
import { failTask } from '../fail.js';
import type { RelayState } from '../../pipeline/relay-state.js';
import { timedOutReason, type RoundResult } from '../poller.js';
import { scrubDeep, scrubIdentity } from '../../../egress/failure.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { TaskFamily, TaskUpdate } from './family.js';

const ROUND_LIMIT = 500;

/** Writes one upstream view; answers whether the task ended. */
async function apply(state: RelayState, channel: ChannelRow, row: TaskRow, u: TaskUpdate): Promise<boolean> {
  if (u.status === 'FAILURE' || u.failReason) {
    // The upstream's view is kept beside the failure, so the caller reads why (scrubbed: it is theirs to read).
    if (u.data !== undefined) await updatePendingTask(state.ctx.db, row.id, { data: JSON.stringify(scrubDeep(u.data, channel, false)), updated_at: nowSeconds() });
    // The reason is the caller's to read: keys and hosts are scrubbed from it.
    await failTask(state, row, scrubIdentity(u.failReason || 'upstream task failed', channel, false));
    return true;
  }
  const done = u.status === 'SUCCESS';
  await updatePendingTask(state.ctx.db, row.id, {
    status: u.status,
    progress: done ? 100 : Math.min(99, Math.max(0, Math.round(u.progress))),
    data: u.data === undefined ? undefined : JSON.stringify(u.data),
    start_time: u.startTime || undefined,
    finish_time: done ? u.finishTime || nowSeconds() : undefined,
    updated_at: nowSeconds(),
  });
  return done;
}

/** One round of a family: pending tasks grouped by channel, fetched as the family fetches (relay.md §6.2 "Polling"). */
export function taskRound(state: RelayState, family: TaskFamily): () => Promise<RoundResult> {
  return async () => {
    const rows = await pendingTasks(state.ctx.db, family.platform, ROUND_LIMIT);
    let ended = 0;
    let upstreamCalls = 0;
    const byChannel = new Map<number, TaskRow[]>();
    for (const row of rows) {
      if (!row.task_id) {
        if (await failTask(state, row, 'upstream returned no task id')) ended++;
      } else byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    }
    const deadline = nowSeconds() - state.ctx.config.TASK_TIMEOUT_SECONDS;
    for (const [channelId, list] of byChannel) {
      const channel = state.selector.index.byId.get(channelId)?.row;
      if (!channel || !family.channelTypes.includes(channel.type)) {
        for (const row of list) if (await failTask(state, row, '渠道不存在或已禁用')) ended++;
        continue;
      }
      const { updates, calls } = await family.fetch(state.ctx, channel, list).catch((error) => {
        state.ctx.log.warn({ err: error, channel: channelId, platform: family.platform }, 'task fetch failed');
        return { updates: new Map<number, TaskUpdate>(), calls: 1 };
      });
      upstreamCalls += calls;
      for (const row of list) {
        const u = updates.get(row.id);
        if (u && (await apply(state, channel, row, u))) ended++;
        else if (row.submit_time < deadline && (await failTask(state, row, timedOutReason(state.ctx.config.TASK_TIMEOUT_SECONDS)))) ended++;
      }
    }
    return { pending: rows.length - ended, tasks: rows.length, upstreamCalls };
  };
}
