/** Quota display (console-spec §9): currency with 2 decimals, or an abbreviated count. */
export interface QuotaDisplay {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

export const DEFAULT_QUOTA_PER_UNIT = 500000;

/** Quota as dollars: value ÷ quota_per_unit, `-$` for negatives. */
export function quotaToCurrency(quota: number, quotaPerUnit: number, digits = 2): string {
  const amount = quota / (quotaPerUnit > 0 ? quotaPerUnit : DEFAULT_QUOTA_PER_UNIT);
  const text = Math.abs(amount).toFixed(digits);
  return amount < 0 && Number(text) !== 0 ? `-$${text}` : `$${text}`;
}

export function formatQuota(quota: number, d: QuotaDisplay, digits = 2): string {
  if (d.displayInCurrency) return quotaToCurrency(quota, d.quotaPerUnit, digits);
  return abbreviate(quota);
}

/** k at 10,000+, M at 1,000,000+, B at 1,000,000,000+, one decimal; smaller numbers as they are. */
export function abbreviate(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** Dollars typed by an admin → quota points (rounded to an integer). */
export function currencyToQuota(dollars: number, quotaPerUnit: number): number {
  return Math.round(dollars * (quotaPerUnit > 0 ? quotaPerUnit : DEFAULT_QUOTA_PER_UNIT));
}
