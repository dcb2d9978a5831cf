/** Quota display (console-spec §9): currency with 2 decimals, or an abbreviated count. */
export interface QuotaDisplay {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

export function formatQuota(quota: number, d: QuotaDisplay): string {
  if (d.displayInCurrency) return `$${(quota / (d.quotaPerUnit || 500000)).toFixed(2)}`;
  return abbreviate(quota);
}

export function abbreviate(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** Epoch seconds → `YYYY-MM-DD HH:mm:ss` in local time. */
export function formatTimestamp(seconds: number): string {
  const d = new Date(seconds * 1000);
  const p = (v: number) => String(v).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
