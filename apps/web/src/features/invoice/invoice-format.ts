import type { InvoiceMonth } from '@one-hub/contract';

/** '2024-01-01' → '2024-01' (a bill covers a calendar month). */
export const monthOf = (date: string) => date.slice(0, 7);

/** The detail route's date when it is a real month start ('YYYY-MM-01'), else null. */
export function monthStart(date: string | undefined): string | null {
  if (!date || !/^\d{4}-(0[1-9]|1[0-2])-01$/.test(date)) return null;
  return date;
}

export type DurationKind = 'millis' | 'seconds' | 'minutes' | 'hours';

/** Summed request time (milliseconds) split for a translated unit text: 850 ms, 12.5 s, 3 m 20 s, 5 h 02 m. */
export function durationParts(ms: number): { kind: DurationKind; values: Record<string, string | number> } {
  if (ms < 1000) return { kind: 'millis', values: { n: Math.round(ms) } };
  const seconds = ms / 1000;
  if (seconds < 60) return { kind: 'seconds', values: { n: seconds.toFixed(1) } };
  const whole = Math.round(seconds);
  if (whole < 3600) return { kind: 'minutes', values: { m: Math.floor(whole / 60), s: whole % 60 } };
  return { kind: 'hours', values: { h: Math.floor(whole / 3600), m: String(Math.floor((whole % 3600) / 60)).padStart(2, '0') } };
}

export const countText = (n: number) => n.toLocaleString('en-US');

type Totals = Omit<InvoiceMonth, 'date'>;

/** The month's totals from its per-model lines. */
export function sumLines(lines: readonly Totals[]): Totals {
  const total: Totals = { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };
  for (const l of lines) {
    total.request_count += l.request_count;
    total.quota += l.quota;
    total.prompt_tokens += l.prompt_tokens;
    total.completion_tokens += l.completion_tokens;
    total.request_time += l.request_time;
  }
  return total;
}

/** A line's share of the month's amount, in whole percent ('—' for an empty month). */
export const shareText = (quota: number, total: number) => (total > 0 ? `${((quota / total) * 100).toFixed(1)}%` : '—');
