import { quoteOrder, topUpForm, type OrderQuote, type PublicGateway } from '@one-hub/contract';

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
