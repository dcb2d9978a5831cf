import type { MidjourneyRow, TaskRow } from '../../db/repos/tasks.js';
import { failAndRefund } from '../../db/repos/task-refunds.js';
import type { RelayState } from '../pipeline/relay-state.js';

/**
 * Ends a Midjourney or generic task as failed and refunds what it cost to the user and token it
 * was charged to, once (an ended row is never refunded again), with the original's log text.
 */
export function failTask(state: RelayState, row: MidjourneyRow | TaskRow, reason: string): Promise<boolean> {
  const mj = 'mj_id' in row;
  return failAndRefund(state.ctx.db, {
    table: mj ? 'midjourneys' : 'tasks',
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    quota: row.quota,
    reason,
    content: mj ? `构图失败 ${row.mj_id || row.id}，补偿 ${row.quota}` : `异步任务执行失败 ${row.task_id || row.id}，补偿 ${row.quota}`,
  });
}
