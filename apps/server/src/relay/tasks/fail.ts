import { LOG_TYPE, logMessage } from '@one-hub/contract';
import { parseJsonOr } from '../../common/json.js';
import { nowSeconds } from '../../common/time.js';
import type { MidjourneyRow, TaskRow } from '../../db/repos/tasks.js';
import { failAndRefund } from '../../db/repos/task-refunds.js';
import { findSubscription } from '../../db/repos/plans.js';
import { findUserById } from '../../db/repos/users.js';
import type { RelayState } from '../pipeline/relay-state.js';

type Row = MidjourneyRow | TaskRow;

/**
 * Ends a Midjourney or generic task as failed and refunds what it cost to where it was charged,
 * once (an ended row is never refunded again): the user and token it was charged to, with the
 * original's log text (translated in the console); or, for a plan-paid task, the plan window it
 * was charged to, while that window is still the current one. A window that has passed keeps the
 * spend, and the log row says so: plan spend never becomes balance. What was refunded also leaves
 * the spending-cap windows the charge was counted in, those still current (`capRefund`).
 */
export async function failTask(state: RelayState, row: Row, reason: string): Promise<boolean> {
  const mj = 'mj_id' in row;
  const task = (mj ? row.mj_id : row.task_id) || String(row.id);
  const caps = capRefund(state, row);
  const ended = await failAndRefund(state.ctx.db, {
    table: mj ? 'midjourneys' : 'tasks',
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    quota: row.quota,
    reason,
    message: mj ? logMessage('mj_failed_refund', { task, refund: row.quota }) : logMessage('task_failed_refund', { task, refund: row.quota }),
    note: caps.note,
    chargeStat: row.charge_stat,
  });
  if (!ended) return false;
  const planRefunded = row.plan_quota > 0 && (await refundPlan(state, row, task, caps.note));
  const refunded = row.quota + (planRefunded ? row.plan_quota : 0);
  await state.limits.refundSpend(caps.current, refunded).catch((e) => state.ctx.log.warn({ err: e, task }, 'cap windows not refunded'));
  return true;
}

/**
 * The cap windows a refund lowers: those the charge was counted in (recorded on the row at
 * submission) that are still current, decided before the row is ended so its log row can say
 * which. A day can have passed within a still-current month, never the other way round.
 */
function capRefund(state: RelayState, row: Row): { current: string[]; note?: { cap_refund: 'window' | 'day_passed' | 'window_passed' } } {
  const recorded = parseJsonOr<string[]>(row.limit_windows, []);
  if (!recorded.length) return { current: [] };
  const current = state.limits.currentSpendKeys(recorded);
  return { current, note: { cap_refund: current.length === recorded.length ? 'window' : current.length ? 'day_passed' : 'window_passed' } };
}

/** Gives a plan-paid task's charge back to its window while that is current; answers whether it did. */
async function refundPlan(state: RelayState, row: Row, task: string, capNote: object | undefined): Promise<boolean> {
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
    metadata: JSON.stringify({
      msg: msg.msg,
      plan_id: sub?.plan_id ?? 0,
      subscription_id: row.subscription_id,
      plan_quota: row.plan_quota,
      plan_refund: refunded ? 'window' : 'window_passed',
      // Kept plan spend stays in the cap windows too.
      ...(refunded ? capNote : {}),
    }),
  });
  return refunded;
}
