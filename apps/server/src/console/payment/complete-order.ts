import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { nowSeconds } from '../../common/time.js';
import { addUserQuota } from '../../db/repos/users.js';
import { findOrderByTradeNo, markOrderPaid } from '../../db/repos/orders.js';
import { writeUserLog } from '../user/user-log.js';
import { promoteAfterTopup } from '../user-group/promotion.js';
import { payInviteReward } from '../user/self-service.js';

/** What a provider learned from a verified payment notice. */
export interface PaidNotice {
  gatewayId: number;
  tradeNo: string;
  gatewayNo: string;
  /** Amount and currency the gateway reports as paid, when it reports them. */
  paid?: { amount: number; currency: string };
  ip?: string;
}

export type CompleteResult = 'credited' | 'unknown_order' | 'wrong_gateway' | 'amount_mismatch' | 'already_done';

/**
 * Applies a verified payment (api.md §23.4 step 4) for the provider callbacks of the payment issue.
 * Unlike the original it checks that the order belongs to the notifying gateway and that the paid
 * amount and currency match the order, and completes with one conditional update, so a replayed
 * notice never credits twice.
 */
export async function completeOrder(ctx: AppContext, notice: PaidNotice): Promise<CompleteResult> {
  const order = await findOrderByTradeNo(ctx.db, notice.tradeNo);
  if (!order) return 'unknown_order';
  if (order.gateway_id !== notice.gatewayId) return 'wrong_gateway';
  if (notice.paid && (notice.paid.currency.toUpperCase() !== order.order_currency || Math.abs(notice.paid.amount - order.order_amount) > 0.005)) {
    ctx.log.warn({ tradeNo: order.trade_no, paid: notice.paid, expected: order.order_amount }, 'payment notice does not match the order');
    return 'amount_mismatch';
  }
  const credited = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markOrderPaid(trx, order.id, notice.gatewayNo, nowSeconds()))) return false;
    await addUserQuota(trx, order.user_id, order.quota);
    return true;
  });
  if (!credited) return 'already_done';
  await ctx.store.publish(EVENTS.users, String(order.user_id));
  await writeUserLog(ctx, {
    userId: order.user_id,
    kind: 'topup',
    content: `在线充值成功，充值积分: ${order.quota}，支付金额：${order.order_amount.toFixed(2)} ${order.order_currency}`,
    quota: order.quota,
    ip: notice.ip,
  });
  await promoteAfterTopup(ctx, order.user_id);
  await payInviteReward(ctx, order.user_id);
  return 'credited';
}
