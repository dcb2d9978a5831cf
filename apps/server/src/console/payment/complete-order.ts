import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { nowSeconds } from '../../common/time.js';
import { addUserQuota } from '../../db/repos/users.js';
import { findOrderByTradeNo, markOrderFailed, markOrderPaid } from '../../db/repos/orders.js';
import { writeUserLog } from '../user/user-log.js';
import { promoteAfterTopup } from '../user-group/promotion.js';
import { payInviteReward } from '../user/self-service.js';
import { findPlanEvenDeleted } from '../../db/repos/plans.js';
import { grantPaidPlan, planPriceQuota, subscriptionsChanged } from '../plan/grant.js';
import { transact } from '../../db/retry.js';

/** What a provider learned from a verified payment notice. */
export interface PaidNotice {
  gatewayId: number;
  tradeNo: string;
  gatewayNo: string;
  /** Amount and currency the gateway reports as paid. */
  paid: { amount: number; currency: string };
  ip?: string;
}

export type CompleteResult = 'credited' | 'credited_late' | 'unknown_order' | 'wrong_gateway' | 'amount_mismatch' | 'already_done';

const cents = (x: number) => Math.round(x * 100);

/**
 * Applies a verified payment (api.md §23.4 step 4); the only place where an online payment turns into
 * quota. Unlike the original it checks that the order belongs to the notifying gateway and that the paid
 * amount and currency match the order (a mismatch fails the order with the reason), and completes with
 * one conditional update, so replayed, concurrent or multi-node notices credit once. A closed order
 * that really was paid is still credited: the user paid.
 */
export async function completeOrder(ctx: AppContext, notice: PaidNotice): Promise<CompleteResult> {
  const order = await findOrderByTradeNo(ctx.db, notice.tradeNo);
  if (!order) return 'unknown_order';
  if (order.gateway_id !== notice.gatewayId) return 'wrong_gateway';
  const { amount, currency } = notice.paid;
  if (currency.toUpperCase() !== order.order_currency || cents(amount) !== cents(order.order_amount)) {
    const reason = `paid ${amount} ${currency.toUpperCase()}, order is ${order.order_amount.toFixed(2)} ${order.order_currency}`;
    const failed = await markOrderFailed(ctx.db, order.id, notice.gatewayNo, reason.slice(0, 255), nowSeconds());
    ctx.log.warn({ tradeNo: order.trade_no, gateway: notice.gatewayId, reason, failed }, 'payment notice does not match the order');
    return failed ? 'amount_mismatch' : 'already_done';
  }
  // A plan order starts the subscription instead of crediting quota, in the same transaction
  // (a plan deleted since still starts: the user paid for it). A plan that does not renew and
  // meanwhile runs for the user (granted by an admin, or another order paid first) is not started
  // twice: the payment is credited as balance, at the plan's price.
  const plan = order.plan_id ? await findPlanEvenDeleted(ctx.db, order.plan_id) : undefined;
  let granted = false;
  let credit = order.quota;
  const won = await transact(ctx.db, async (trx) => {
    const from = await markOrderPaid(trx, order.id, notice.gatewayNo, nowSeconds());
    if (!from) return from;
    granted = plan !== undefined && (await grantPaidPlan(trx, order.user_id, plan, order.trade_no, nowSeconds())) === 'granted';
    if (granted) return from;
    credit = plan ? planPriceQuota(plan, ctx.options.get('QuotaPerUnit'), ctx.options.get('PaymentUSDRate')) : order.quota;
    await addUserQuota(trx, order.user_id, credit);
    return from;
  });
  if (!won) return 'already_done';
  if (won === 'closed') ctx.log.warn({ tradeNo: order.trade_no, gateway: notice.gatewayId }, 'late payment for a closed order credited');
  const paid = { amount: order.order_amount.toFixed(2), currency: order.order_currency };
  if (plan && granted) {
    await subscriptionsChanged(ctx, order.user_id);
    await writeUserLog(ctx, { userId: order.user_id, kind: 'topup', message: 'plan_purchase', args: { plan: plan.name, ...paid }, quota: 0, ip: notice.ip });
    await payInviteReward(ctx, order.user_id);
    return won === 'closed' ? 'credited_late' : 'credited';
  }
  if (plan) {
    ctx.log.warn({ tradeNo: order.trade_no, plan: plan.id, quota: credit }, 'paid plan already held; payment credited as balance');
    await ctx.store.publish(EVENTS.users, String(order.user_id));
    await writeUserLog(ctx, { userId: order.user_id, kind: 'topup', message: 'plan_held_credited', args: { plan: plan.name, ...paid, quota: credit }, quota: credit, ip: notice.ip });
    await payInviteReward(ctx, order.user_id);
    return won === 'closed' ? 'credited_late' : 'credited';
  }
  await ctx.store.publish(EVENTS.users, String(order.user_id));
  await writeUserLog(ctx, {
    userId: order.user_id,
    kind: 'topup',
    message: 'online_topup',
    args: { points: order.quota, ...paid },
    quota: order.quota,
    ip: notice.ip,
  });
  await promoteAfterTopup(ctx, order.user_id);
  await payInviteReward(ctx, order.user_id);
  return won === 'closed' ? 'credited_late' : 'credited';
}
