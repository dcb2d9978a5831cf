import type { PlanDurationKind, PlanWindowKind } from '@one-hub/contract';

const HOUR = 3600;
const DAY = 86_400;

/** End of a period of `count` days, weeks or calendar months from `start` (seconds, UTC; a month keeps its day, clamped to the month's last). */
export function periodEnd(start: number, kind: PlanDurationKind, count: number): number {
  if (kind === 'day') return start + count * DAY;
  if (kind === 'week') return start + count * 7 * DAY;
  const d = new Date(start * 1000);
  const months = d.getUTCMonth() + count;
  const year = d.getUTCFullYear() + Math.floor(months / 12);
  const month = months % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), last);
  return Math.floor(Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

/**
 * The window of a subscription (start..end seconds) that contains `now` (seconds): 5-hour blocks
 * counted from the subscription's start, the UTC day, the UTC week from Monday, or the whole
 * period; clipped to the subscription. Before the start it is the first window.
 */
export function windowAt(kind: PlanWindowKind, subStart: number, subEnd: number, now: number): { start: number; end: number } {
  const t = Math.max(now, subStart);
  let start: number;
  let end: number;
  if (kind === '5h') {
    start = subStart + Math.floor((t - subStart) / (5 * HOUR)) * 5 * HOUR;
    end = start + 5 * HOUR;
  } else if (kind === 'day') {
    start = Math.floor(t / DAY) * DAY;
    end = start + DAY;
  } else if (kind === 'week') {
    // 1970-01-01 was a Thursday: Mondays are 4 days after multiples of a week.
    start = Math.floor((t - 4 * DAY) / (7 * DAY)) * 7 * DAY + 4 * DAY;
    end = start + 7 * DAY;
  } else {
    start = subStart;
    end = subEnd;
  }
  return { start: Math.max(start, subStart), end: Math.min(end, subEnd) };
}

/** The shared-store counter of one subscription window: quota spent plus quota held by requests in flight. */
export const planWindowKey = (subscriptionId: number, windowStart: number) => `plan-window:${subscriptionId}:${windowStart}`;
