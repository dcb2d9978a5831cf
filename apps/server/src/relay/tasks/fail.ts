import { LOG_TYPE, logMessage } from '@one-hub/contract';
import { nowSeconds } from '../../common/time.js';
import type { MidjourneyRow, TaskRow } from '../../db/repos/tasks.js';
import { failAndRefund } from '../../db/repos/task-refunds.js';
import { findSubscription } from '../../db/repos/plans.js';
import { findUserById } from '../../db/repos/users.js';
import type { RelayState } from '../pipeline/relay-state.js';

/**
 * Ends a Midjourney or generic task as failed and refunds what it cost to where it was charged,
 * once (an ended row is never refunded again): the user and token it was charged to, with the
 * original's log text (translated in the console); or, for a plan-paid task, the plan window it
 * was charged to, while that window is still the current one. A window that has passed keeps the
 * spend, and the log row says so: plan spend never becomes balance.
 */
export async function failTask(state: RelayState, row: MidjourneyRow | TaskRow, reason: string): Promise<boolean> {
  const mj = 'mj_id' in row;
  const task = (mj ? row.mj_id : row.task_id) || String(row.id);
  const ended = await failAndRefund(state.ctx.db, {
    table: mj ? 'midjourneys' : 'tasks',
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    quota: row.quota,
    reason,
    message: mj ? logMessage('mj_failed_refund', { task, refund: row.quota }) : logMessage('task_failed_refund', { task, refund: row.quota }),
  });
  if (ended && row.plan_quota > 0) await refundPlan(state, row, task);
  return ended;
}

async function refundPlan(state: RelayState, row: MidjourneyRow | TaskRow, task: string): Promise<void> {
  const refunded = await state.plans.refund(row.subscription_id, row.plan_window, row.plan_quota);
  const [user, sub] = await Promise.all([findUserById(state.ctx.db, row.user_id), findSubscription(state.ctx.db, row.subscription_id)]);
  const msg = logMessage(refunded ? 'task_failed_plan_refund' : 'task_failed_plan_kept', { task, plan_quota: row.plan_quota });
  state.recorder.log({
    type: LOG_TYPE.system,
    created_at: nowSeconds(),
    user_id: row.user_id,
    username: user?.username ?? '',
    token_id: row.token_id,
    channel_id: row.channel_id,
    quota: 0,
    content: msg.content,
    metadata: JSON.stringify({ msg: msg.msg, plan_id: sub?.plan_id ?? 0, subscription_id: row.subscription_id, plan_quota: row.plan_quota, plan_refund: refunded ? 'window' : 'window_passed' }),
  });
}
