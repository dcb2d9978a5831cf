import { z } from 'zod';
import { text } from './format/text.js';
import { TOPUP_MAX } from './format/validation.js';

/** api.md §2.9 */
export const PAYMENT_TYPES = ['epay', 'alipay', 'wxpay', 'stripe'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
export const PAYMENT_CURRENCIES = ['CNY', 'USD'] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];
/** api.md §2.8 */
export const ORDER_STATUSES = ['pending', 'success', 'failed', 'closed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** What a pay request asks the browser to do: 1 open or submit a URL, 2 show a QR code. */
export const PAY_ACTION = { redirect: 1, qrcode: 2 } as const;

/** Keys of the gateway `config` JSON by type (api.md §23.1). */
export const PAYMENT_CONFIG_KEYS: Record<PaymentType, readonly string[]> = {
  epay: ['pay_domain', 'partner_id', 'key', 'pay_type'],
  alipay: ['app_id', 'private_key', 'public_key', 'pay_type'],
  wxpay: ['app_id', 'mch_id', 'mch_certificate_serial_number', 'mch_apiv3_key', 'mch_private_key', 'wechatpay_public_key_id', 'wechatpay_public_key', 'pay_type'],
  stripe: ['secret_key', 'webhook_secret'],
};
/** Config keys that are secrets: write-only, answered as SECRET_PLACEHOLDER when set. */
export const PAYMENT_SECRET_KEYS: readonly string[] = ['key', 'private_key', 'mch_apiv3_key', 'mch_private_key', 'secret_key', 'webhook_secret'];
/** Stands for a stored secret; sent back (or left blank) on update it keeps the stored value. */
export const SECRET_PLACEHOLDER = '********';

/** `pay_type` choices per gateway type; '' is Epay's own checkout page. */
export const PAYMENT_PAY_TYPES: Partial<Record<PaymentType, readonly string[]>> = {
  epay: ['', 'alipay', 'wxpay', 'qqpay', 'jdpay', 'bank', 'paypal', 'usdt'],
  alipay: ['facepay', 'pagepay', 'wappay'],
  wxpay: ['Native'],
};

/** A gateway as the admin sees it; secrets in `config` read as SECRET_PLACEHOLDER. */
export interface PaymentGateway {
  id: number;
  type: string;
  uuid: string;
  name: string;
  icon: string;
  notify_domain: string;
  fixed_fee: number;
  percent_fee: number;
  currency: string;
  /** JSON text with the gateway's credentials. */
  config: string;
  sort: number;
  enable: boolean;
  created_at: number;
}

/** A gateway as offered to a user: no secrets, no notify domain. */
export interface PublicGateway {
  uuid: string;
  name: string;
  icon: string;
  fixed_fee: number;
  percent_fee: number;
  currency: string;
  sort: number;
}

export interface Order {
  id: number;
  user_id: number;
  gateway_id: number;
  trade_no: string;
  gateway_no: string;
  amount: number;
  order_amount: number;
  order_currency: string;
  quota: number;
  fee: number;
  discount: number;
  status: string;
  /** Why a payment notice was refused (amount or currency mismatch); '' otherwise. */
  fail_reason: string;
  created_at: number;
}

/** Answer of POST /api/user/order. `type` 0 means no pay request could be made (no provider yet). */
export interface PayRequest {
  trade_no: string;
  type: number;
  data: { url: string; method?: string; params?: Record<string, string> } | null;
  order: Pick<Order, 'amount' | 'order_amount' | 'order_currency' | 'fee' | 'discount' | 'quota' | 'status'>;
}

const configText = text()
  .max(20_000)
  .refine((s) => {
    if (s.trim() === '') return true;
    try {
      const v: unknown = JSON.parse(s);
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    } catch {
      return false;
    }
  }, 'config must be a JSON object');
const flag = z.union([z.boolean(), z.number().int().min(0).max(1)]).transform((v) => Boolean(v));
const money = (max: number) => z.coerce.number().min(0, 'must not be negative').max(max);

const gatewayFields = {
  type: z.enum(PAYMENT_TYPES, { error: 'type must be epay, alipay, wxpay or stripe' }),
  name: text().trim().min(1, 'name is required').max(255),
  icon: text().trim().min(1, 'icon is required').max(300),
  notify_domain: text().trim().max(300),
  fixed_fee: money(1_000_000),
  /** A fraction: 0.05 is 5 %. */
  percent_fee: money(1),
  currency: z.enum(PAYMENT_CURRENCIES, { error: 'currency must be CNY or USD' }),
  config: configText,
  sort: z.coerce.number().int().min(0, 'sort must not be negative').max(1_000_000),
  enable: flag,
};

export const PaymentBody = z.object({
  ...gatewayFields,
  notify_domain: gatewayFields.notify_domain.optional().default(''),
  fixed_fee: gatewayFields.fixed_fee.optional().default(0),
  percent_fee: gatewayFields.percent_fee.optional().default(0),
  config: gatewayFields.config.optional().default(''),
  sort: gatewayFields.sort.optional().default(1),
  enable: gatewayFields.enable.optional().default(true),
});
export type PaymentBody = z.infer<typeof PaymentBody>;

/** PUT /api/payment/: `id` plus only the fields to change (the list sends just `sort` or `enable`). */
export const UpdatePaymentBody = z.object(gatewayFields).partial().extend({ id: z.coerce.number().int().positive() });
export type UpdatePaymentBody = z.infer<typeof UpdatePaymentBody>;

const optInt = z.coerce.number().int().optional();
const optText = (max: number) => text().trim().max(max).optional();

export const PaymentListQuery = z.object({
  type: optText(16),
  name: optText(255),
  uuid: optText(32),
  currency: optText(5),
});

export const OrderListQuery = z.object({
  user_id: optInt,
  gateway_id: optInt,
  trade_no: optText(50),
  gateway_no: optText(100),
  status: optText(32),
  start_timestamp: optInt,
  end_timestamp: optInt,
});

export const CreateOrderBody = z.object({
  uuid: text({ error: 'invalid request' }).trim().min(1, 'invalid request').max(32),
  amount: z.coerce.number({ error: 'invalid request' }).int('amount must be a whole number').positive('invalid request').max(TOPUP_MAX, `amount must not exceed ${TOPUP_MAX}`),
});

export const OrderStatusQuery = z.object({ trade_no: text().trim().min(1, 'trade_no is required').max(50) });

/** RechargeDiscount option text → amount → discount factor; bad text or values are ignored. */
export function parseRechargeDiscount(text: string): Record<string, number> {
  if (!text.trim()) return {};
  try {
    const raw: unknown = JSON.parse(text);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    const out: Record<string, number> = {};
    for (const [amount, discount] of Object.entries(raw)) {
      const d = Number(discount);
      if (/^\d+$/.test(amount) && Number.isFinite(d) && d > 0) out[amount] = d;
    }
    return out;
  } catch {
    return {};
  }
}

/** Presets of the top-up screen, ascending by amount. */
export function rechargePresets(text: string): Array<{ amount: number; discount: number }> {
  return Object.entries(parseRechargeDiscount(text))
    .map(([amount, discount]) => ({ amount: Number(amount), discount }))
    .sort((a, b) => a.amount - b.amount);
}

/** Rounds money to cents; the epsilon keeps 1.005 from becoming 1.00. */
export const round2 = (x: number) => Math.round((x + Math.sign(x) * Number.EPSILON * Math.max(1, Math.abs(x))) * 100) / 100;

export interface OrderQuoteInput {
  /** Whole USD to top up. */
  amount: number;
  discount: number;
  fixedFee: number;
  percentFee: number;
  currency: string;
  /** Yuan per dollar (option PaymentUSDRate). */
  usdRate: number;
}

export interface OrderQuote {
  /** amount × discount, USD. */
  discounted: number;
  /** USD; a percent fee wins over a fixed one. */
  fee: number;
  feeKind: 'none' | 'fixed' | 'percent';
  /** discounted + fee, USD. */
  total: number;
  /** What the gateway charges, in its currency. */
  pay: number;
  /** Money saved by the discount, in the gateway currency (negative when a fixed fee outweighs it). */
  saved: number;
}

/**
 * The price of a top-up (api.md §23.2 step 4, console-spec §9). Server and screen share this,
 * so the summary a user sees is the amount the order is created for.
 */
export function quoteOrder(q: OrderQuoteInput): OrderQuote {
  const discounted = q.amount * q.discount;
  let fee = 0;
  let list = q.amount;
  let feeKind: OrderQuote['feeKind'] = 'none';
  if (q.percentFee > 0) {
    fee = round2(discounted * q.percentFee);
    list = round2(q.amount * (1 + q.percentFee));
    feeKind = 'percent';
  } else if (q.fixedFee > 0) {
    fee = round2(q.fixedFee);
    feeKind = 'fixed';
  }
  const total = round2(discounted + fee);
  let pay = total;
  if (q.currency === 'CNY') {
    pay = round2(total * q.usdRate);
    list = round2(list * q.usdRate);
  }
  return { discounted: round2(discounted), fee, feeKind, total, pay, saved: round2(list - pay) };
}

/** A plan's price in USD: a CNY plan at `usdRate` yuan per dollar. */
export const planUsd = (plan: { price: number; currency: string }, usdRate: number) => (plan.currency === 'CNY' ? plan.price / usdRate : plan.price);

/** What buying a plan costs on a gateway: its USD price priced like a top-up with no discount (the server's order, to the cent). */
export function quotePlan(q: { price: number; planCurrency: string; fixedFee: number; percentFee: number; currency: string; usdRate: number }): OrderQuote & { usd: number } {
  const usd = planUsd({ price: q.price, currency: q.planCurrency }, q.usdRate);
  const quote = quoteOrder({ amount: usd, discount: 1, fixedFee: q.fixedFee, percentFee: q.percentFee, currency: q.currency, usdRate: q.usdRate });
  if (q.planCurrency !== 'CNY' || q.currency !== 'CNY') return { ...quote, usd };
  // A yuan plan on a yuan gateway is priced in yuan: no round trip through cents of a dollar (99 stays 99, not 98.99).
  const fee = quote.feeKind === 'percent' ? q.price * q.percentFee : quote.feeKind === 'fixed' ? quote.fee * q.usdRate : 0;
  const pay = round2(q.price + fee);
  const list = quote.feeKind === 'percent' ? pay : q.price;
  return { ...quote, pay, saved: round2(list - pay), usd };
}
