import { logMessage } from '@one-hub/contract';
import type { MidjourneyRow, TaskRow } from '../../db/repos/tasks.js';
import { failAndRefund } from '../../db/repos/task-refunds.js';
import type { RelayState } from '../pipeline/relay-state.js';

/**
 * Ends a Midjourney or generic task as failed and refunds what it cost to the user and token it
 * was charged to, once (an ended row is never refunded again), with the original's log text (translated in the console).
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
    message: mj
      ? logMessage('mj_failed_refund', { task: row.mj_id || String(row.id), refund: row.quota })
      : logMessage('task_failed_refund', { task: row.task_id || String(row.id), refund: row.quota }),
  });
}
