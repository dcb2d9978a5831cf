/** Pure shaping of per-day statistics for the dashboard and analytics charts. */

const pad = (v: number) => String(v).padStart(2, '0');

/** A local calendar day as `YYYY-MM-DD`. */
export function localDay(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The last `n` local days ending today, oldest first. */
export function lastLocalDays(n: number, now = new Date()): string[] {
  const days: string[] = [];
  for (let i = n - 1; i >= 0; i--) days.push(localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - i)));
  return days;
}

/** Every local day from one epoch second to another, inclusive, oldest first (at most `limit`). */
export function daysBetween(startSeconds: number, endSeconds: number, limit = 400): string[] {
  const start = new Date(startSeconds * 1000);
  const end = localDay(new Date(endSeconds * 1000));
  const days: string[] = [];
  for (let d = new Date(start.getFullYear(), start.getMonth(), start.getDate()); days.length < limit; d.setDate(d.getDate() + 1)) {
    const day = localDay(d);
    if (day > end) break;
    days.push(day);
  }
  return days;
}

export interface Series {
  name: string;
  data: number[];
}

/**
 * One series per label, one value per day (0 where a day has no row), labels sorted by name.
 * Rows with an empty label (zero-filled days) add no series.
 */
export function stackBy<R>(rows: R[], days: string[], dayOf: (r: R) => string, labelOf: (r: R) => string, valueOf: (r: R) => number): Series[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const byLabel = new Map<string, number[]>();
  for (const r of rows) {
    const label = labelOf(r);
    const i = index.get(dayOf(r));
    if (!label || i === undefined) continue;
    if (!byLabel.has(label)) byLabel.set(label, days.map(() => 0));
    byLabel.get(label)![i] += valueOf(r);
  }
  return [...byLabel.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, data]) => ({ name, data }));
}

/** Per-day sums of one value (0 for missing days). */
export function sumPerDay<R>(rows: R[], days: string[], dayOf: (r: R) => string, valueOf: (r: R) => number): number[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const out = days.map(() => 0);
  for (const r of rows) {
    const i = index.get(dayOf(r));
    if (i !== undefined) out[i] += valueOf(r);
  }
  return out;
}

export const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
export const seriesTotal = (series: Series[]) => total(series.map((s) => total(s.data)));

/**
 * Today against yesterday in whole percent: 0/0 → 0, today 0 after a positive day → −100,
 * a positive day after 0 → +100.
 */
export function trendPercent(today: number, yesterday: number): number {
  if (yesterday === 0) return today === 0 ? 0 : 100;
  return Math.round(((today - yesterday) / yesterday) * 100);
}

/** Quota as dollars rounded to `digits`, for chart values (the charts always show $). */
export function quotaDollars(quota: number, quotaPerUnit: number, digits = 3): number {
  const unit = quotaPerUnit > 0 ? quotaPerUnit : 500000;
  return Number((quota / unit).toFixed(digits));
}
