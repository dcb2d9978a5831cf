import { randomInt } from 'node:crypto';
import { parseRechargeDiscount, planUsd, quoteOrder, quotePlan, type PaymentBody, type PayRequest, type UpdatePaymentBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { uuidHex } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import type { UserRow } from '../../db/repos/users.js';
import { findEnabledPaymentByUuid, findPaymentById, hardDeletePayment, insertPayment, softDeletePayment, updatePayment, type PaymentRow } from '../../db/repos/payments.js';
import { closeStaleOrders, findUserOrder, insertOrder } from '../../db/repos/orders.js';
import type { Db } from '../../db/index.js';
import { lockInOrder } from '../../db/locks.js';
import { transact } from '../../db/retry.js';
import { toOrderJson, toPaymentJson } from './json.js';
import { payProviderFor } from './providers.js';
import { gatewayConfig } from './providers/config.js';
import { mergeConfig } from './secrets.js';

/** A pending order this old is closed (and no longer counts as one the user is paying). */
export const STALE_ORDER_SECONDS = 3 * 3600;

export async function getPayment(ctx: AppContext, id: number) {
  const row = await findPaymentById(ctx.db, id);
  if (!row) throw apiError(404, 'payment_not_found');
  return toPaymentJson(row);
}

/** `{notify_domain or ServerAddress}/api/payment/notify/{uuid}` (api.md §23.2 step 7). */
function notifyUrlOf(ctx: AppContext, gateway: Pick<PaymentRow, 'notify_domain' | 'uuid'>): string {
  const base = (gateway.notify_domain || ctx.options.get('ServerAddress')).replace(/\/+$/, '');
  return `${base}/api/payment/notify/${gateway.uuid}`;
}

/** Inserts the gateway, then runs its provider's setup (Stripe's webhook); a failed setup removes it again. */
export async function createPayment(ctx: AppContext, body: PaymentBody) {
  const now = nowSeconds();
  const id = await insertPayment(ctx.db, { ...body, enable: body.enable ? 1 : 0, uuid: uuidHex(), created_at: now, updated_at: now });
  const setup = payProviderFor(body.type)?.setup;
  if (setup) {
    const row = (await findPaymentById(ctx.db, id))!;
    try {
      const patch = await setup(row, notifyUrlOf(ctx, row), { config: ctx.config });
      await updatePayment(ctx.db, id, { config: JSON.stringify({ ...gatewayConfig(row), ...patch }) });
    } catch (error) {
      await hardDeletePayment(ctx.db, id);
      ctx.log.warn({ err: error, type: body.type }, 'payment gateway setup failed');
      throw apiError(502, 'payment_init_failed', { reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return getPayment(ctx, id);
}

export async function updatePaymentById(ctx: AppContext, body: UpdatePaymentBody) {
  const { id, enable, config, ...rest } = body;
  const stored = config === undefined ? undefined : await findPaymentById(ctx.db, id);
  const patch = {
    ...rest,
    ...(enable === undefined ? {} : { enable: enable ? 1 : 0 }),
    ...(config === undefined ? {} : { config: mergeConfig(stored?.config ?? null, config) }),
    updated_at: nowSeconds(),
  };
  if (!(await updatePayment(ctx.db, id, patch))) throw apiError(404, 'payment_not_found');
  return getPayment(ctx, id);
}

export async function removePayment(ctx: AppContext, id: number): Promise<void> {
  if (!(await softDeletePayment(ctx.db, id, nowSeconds()))) throw apiError(404, 'payment_not_found');
}

/** Local order number: milliseconds then six random digits, 19 digits like the original's snowflake. */
function newTradeNo(): string {
  return `${Date.now()}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/**
 * POST /api/user/order (api.md §23.2). The order row is written with the quoted amounts; the pay
 * request comes from the gateway's provider. Without one, the order stays pending and the answer
 * says that no payment was started.
 */
export async function createOrder(ctx: AppContext, user: UserRow, uuid: string, amount: number): Promise<{ message: string; data: PayRequest }> {
  const min = ctx.options.get('PaymentMinAmount');
  if (amount < Math.max(1, min)) throw apiError(400, 'amount_too_small', { minimum: Math.max(1, min) }, { fields: [{ path: 'amount', code: 'too_small', args: { minimum: Math.max(1, min) }, message: `金额必须大于等于 ${Math.max(1, min)}` }] });
  const discount = parseRechargeDiscount(ctx.options.raw('RechargeDiscount'))[String(amount)] ?? 1;
  return placeOrder(ctx, user, uuid, {
    amount,
    quoteAmount: amount,
    discount,
    quota: Math.round(amount * ctx.options.get('QuotaPerUnit')),
    planId: 0,
    subject: `${ctx.options.get('SystemName')}-Token充值:${amount}`,
    returnPath: '/panel/log',
  });
}

/**
 * An order for a subscription plan: the plan's price (USD, or CNY converted at PaymentUSDRate) plus
 * the gateway's fee; no quota. The paid notice starts the subscription (completeOrder).
 */
export async function createPlanOrder(
  ctx: AppContext,
  user: UserRow,
  uuid: string,
  plan: { id: number; name: string; price: number; currency: string },
  exclusive?: OrderGuard,
): Promise<{ message: string; data: PayRequest }> {
  return placeOrder(ctx, user, uuid, {
    amount: 0,
    quoteAmount: planUsd(plan, ctx.options.get('PaymentUSDRate')),
    plan,
    discount: 1,
    quota: 0,
    planId: plan.id,
    subject: `${ctx.options.get('SystemName')}-Plan:${plan.name}`,
    returnPath: '/panel/subscription',
    exclusive,
  });
}

/** Refuses (throws) an order that may not exist beside the user's others; runs with the user's row locked. */
export type OrderGuard = (db: Db) => Promise<void>;

interface OrderSpec {
  /** The order row's `amount` (the top-up's USD units; 0 for a plan). */
  amount: number;
  /** USD amount the quote starts from. */
  quoteAmount: number;
  /** A plan's own price: quoted by `quotePlan`, so a yuan plan on a yuan gateway costs its price to the fen. */
  plan?: { price: number; currency: string };
  discount: number;
  quota: number;
  planId: number;
  subject: string;
  returnPath: string;
  /** Checked again when the order row is written, under the user's row lock: of parallel orders one passes. */
  exclusive?: OrderGuard;
}

async function placeOrder(ctx: AppContext, user: UserRow, uuid: string, spec: OrderSpec): Promise<{ message: string; data: PayRequest }> {
  const now = nowSeconds();
  void closeStaleOrders(ctx.db, now - STALE_ORDER_SECONDS, now).catch((e) => ctx.log.warn({ err: e }, 'closing stale orders failed'));
  const gateway = await findEnabledPaymentByUuid(ctx.db, uuid);
  if (!gateway) throw apiError(404, 'payment_not_found');

  const fees = { fixedFee: gateway.fixed_fee, percentFee: gateway.percent_fee, currency: gateway.currency, usdRate: ctx.options.get('PaymentUSDRate') };
  const quote = spec.plan
    ? quotePlan({ price: spec.plan.price, planCurrency: spec.plan.currency, ...fees })
    : quoteOrder({ amount: spec.quoteAmount, discount: spec.discount, ...fees });
  const tradeNo = newTradeNo();
  const serverAddress = ctx.options.get('ServerAddress').replace(/\/+$/, '');
  const provider = payProviderFor(gateway.type);
  let pay: Pick<PayRequest, 'type' | 'data'> = { type: 0, data: null };
  if (provider) {
    try {
      pay = await provider.createPayment(gateway, {
        tradeNo,
        pay: quote.pay,
        amount: spec.amount,
        userId: user.id,
        email: user.email ?? '',
        subject: spec.subject,
        notifyUrl: notifyUrlOf(ctx, gateway),
        returnUrl: `${serverAddress}${spec.returnPath}`,
      }, { config: ctx.config });
    } catch (error) {
      ctx.log.warn({ err: error, gateway: gateway.id }, 'payment creation failed');
      throw apiError(502, 'payment_create_failed');
    }
  }
  const order = {
    user_id: user.id,
    gateway_id: gateway.id,
    trade_no: tradeNo,
    amount: spec.amount,
    order_amount: quote.pay,
    order_currency: gateway.currency,
    fee: quote.fee,
    discount: quote.saved,
    status: 'pending',
    quota: spec.quota,
    plan_id: spec.planId,
    created_at: now,
    updated_at: now,
  };
  await transact(ctx.db, async (trx) => {
    await lockInOrder(trx, 'users', [user.id]);
    await spec.exclusive?.(trx);
    await insertOrder(trx, order);
  });
  const message = provider ? '' : `订单已创建，但 ${gateway.type} 支付尚未接入（将在后续版本提供），未发起支付`;
  const { amount: a, order_amount, order_currency, fee, discount: saved, quota, status } = order;
  return { message, data: { trade_no: tradeNo, ...pay, order: { amount: a, order_amount, order_currency, fee, discount: saved, quota, status } } };
}

/** The caller's own order only; another user's trade number reads as unknown. */
export async function orderStatus(ctx: AppContext, userId: number, tradeNo: string) {
  const row = await findUserOrder(ctx.db, userId, tradeNo);
  if (!row) throw apiError(404, 'order_not_found');
  return toOrderJson(row);
}
