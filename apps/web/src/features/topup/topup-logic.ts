import { quotePlan, quoteOrder, topUpForm, type OrderQuote, type Plan, type PublicGateway, type Subscription } from '@one-hub/contract';

/** The red badge of a preset: "9折" style (discount × 10) and percent off for other languages. */
export function discountBadge(discount: number): { zhe: string; off: number } | null {
  if (!(discount > 0) || discount === 1) return null;
  return { zhe: String(Math.round(discount * 100) / 10), off: Math.round((1 - discount) * 100) };
}

/** The summary lines under the amount (console-screens §3.8), priced exactly as the server will. */
export function topUpSummary(amount: number, discount: number, gateway: PublicGateway, usdRate: number): OrderQuote & { cny: boolean } {
  const quote = quoteOrder({ amount, discount, fixedFee: gateway.fixed_fee, percentFee: gateway.percent_fee, currency: gateway.currency, usdRate });
  return { ...quote, cny: gateway.currency === 'CNY' };
}

/**
 * The client checks before an order (console-screens §3.8), in order: a gateway is chosen, the amount
 * is at least the minimum, at most 1 000 000, and whole. Answers an i18n key of the topup namespace or null.
 */
export function topUpProblem(amount: string, gateway: PublicGateway | undefined, minAmount: number): { key: string; min?: number } | null {
  if (!gateway) return { key: 'needGateway' };
  const min = Math.max(1, minAmount || 1);
  const parsed = topUpForm(min).safeParse({ amount: amount.trim() === '' ? undefined : amount, gateway: 1 });
  if (parsed.success) return null;
  const n = Number(amount);
  if (amount.trim() === '' || !Number.isFinite(n) || n < min) return { key: 'belowMin', min };
  if (n > 1_000_000) return { key: 'aboveMax' };
  return { key: 'notWhole' };
}

/** The bill of a plan on a gateway (the order the server will create), and its price in the plan's own currency. */
export function planSummary(plan: Pick<Plan, 'price' | 'currency'>, gateway: PublicGateway, usdRate: number): OrderQuote {
  return quotePlan({ price: plan.price, planCurrency: plan.currency, fixedFee: gateway.fixed_fee, percentFee: gateway.percent_fee, currency: gateway.currency, usdRate });
}

/**
 * What a plan's offer lets the user do: buy it; renew it while a subscription of it runs or waits
 * (the new period starts when the last one ends); or nothing while held, when it does not renew.
 * `until` is when the user's last period of it ends.
 */
export function planOffer(plan: Pick<Plan, 'id' | 'renews'>, subs: Pick<Subscription, 'plan_id' | 'status' | 'end_at'>[]): { kind: 'buy' } | { kind: 'renew' | 'held'; until: number } {
  const held = subs.filter((s) => s.plan_id === plan.id && (s.status === 'active' || s.status === 'pending'));
  if (!held.length) return { kind: 'buy' };
  const until = Math.max(...held.map((s) => s.end_at));
  return { kind: plan.renews ? 'renew' : 'held', until };
}
