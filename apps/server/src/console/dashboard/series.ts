import { OTHER_SERIES, REST_SERIES, type AnalyticsPeriod, type DashboardRow, type PeriodSeriesPoint } from '@one-hub/contract';

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' (UTC, the roll-up's day) of epoch seconds. */
export const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The `count` calendar days ending on the day of `nowMs`, oldest first. */
export function lastDays(nowMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(nowMs - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

interface UsageSums {
  request_count: unknown;
  quota: unknown;
  prompt_tokens: unknown;
  completion_tokens: unknown;
  request_time: unknown;
}

/** Dashboard rows per day and model; a day without usage still gets one all-zero row (ModelName ''). */
export function zeroFilledDashboard(days: string[], rows: Array<UsageSums & { date: string; model_name: string }>): DashboardRow[] {
  const out: DashboardRow[] = [];
  for (const day of days) {
    const ofDay = rows.filter((r) => r.date === day).sort((a, b) => a.model_name.localeCompare(b.model_name));
    if (!ofDay.length) out.push({ Date: day, ModelName: '', RequestCount: 0, Quota: 0, PromptTokens: 0, CompletionTokens: 0, RequestTime: 0 });
    for (const r of ofDay) {
      out.push({
        Date: day,
        ModelName: r.model_name,
        RequestCount: Number(r.request_count),
        Quota: Number(r.quota),
        PromptTokens: Number(r.prompt_tokens),
        CompletionTokens: Number(r.completion_tokens),
        RequestTime: Number(r.request_time),
      });
    }
  }
  return out;
}

export type GroupType = 'model' | 'model_type' | 'channel';
export interface LabelledUsage extends UsageSums {
  date: string;
  model_name: string;
  channel_id: number | null;
  channel_name: string | null;
  owner_name: string | null;
}

type Labelled = Pick<LabelledUsage, 'model_name' | 'channel_id' | 'channel_name' | 'owner_name'>;

/** The series a row belongs to in a grouping: its model, its model's owner or its channel's name ('#id' for a deleted channel). */
function seriesLabel(r: Labelled, groupType: GroupType): string {
  const named = groupType === 'model' ? r.model_name : groupType === 'model_type' ? r.owner_name : (r.channel_name ?? `#${r.channel_id}`);
  return named || OTHER_SERIES;
}

/**
 * The keys periodUsage keeps so that only the `top` labels by quota stay apart (ties by label), or
 * null when there are no more labels than that. Keys are channel ids, model names or owner labels;
 * channels sharing a name share a label, so all their ids are kept.
 */
export function keptKeys(totals: Array<Labelled & { quota: unknown }>, groupType: GroupType, top: number): Array<number | string> | null {
  const quota = new Map<string, number>();
  for (const r of totals) {
    const label = seriesLabel(r, groupType);
    quota.set(label, (quota.get(label) ?? 0) + Number(r.quota));
  }
  if (quota.size <= top) return null;
  const kept = new Set([...quota.entries()].sort(([a, qa], [b, qb]) => qb - qa || (a < b ? -1 : a > b ? 1 : 0)).slice(0, top).map(([label]) => label));
  if (groupType === 'model_type') return [...kept];
  return totals.filter((r) => kept.has(seriesLabel(r, groupType))).map((r) => (groupType === 'channel' ? r.channel_id! : r.model_name));
}

/**
 * Sums roll-up rows per day and label. Every row lands in exactly one series, so each grouping sums to
 * the same totals; models without a known owner form the OTHER_SERIES group (the original dropped them).
 * A folded answer's REST_SERIES comes last in each day.
 */
export function periodSeries(rows: LabelledUsage[], groupType: GroupType): PeriodSeriesPoint[] {
  const series = new Map<string, PeriodSeriesPoint>();
  for (const r of rows) {
    const label = seriesLabel(r, groupType);
    const key = `${r.date}\u0000${label}`;
    const s = series.get(key) ?? { Date: r.date, Channel: label, RequestCount: 0, Quota: 0, PromptTokens: 0, CompletionTokens: 0, RequestTime: 0 };
    s.RequestCount += Number(r.request_count);
    s.Quota += Number(r.quota);
    s.PromptTokens += Number(r.prompt_tokens);
    s.CompletionTokens += Number(r.completion_tokens);
    s.RequestTime += Number(r.request_time);
    series.set(key, s);
  }
  // Labels are collated once (a few hundred), points then ordered by day and label rank: collating
  // inside the sort cost ~250 000 localeCompare calls for 90 days of 200 channels.
  const points = [...series.values()];
  const rank = new Map([...new Set(points.map((p) => p.Channel))].sort((a, b) => a.localeCompare(b)).map((label, i) => [label, label === REST_SERIES ? Infinity : i]));
  return points.sort((a, b) => (a.Date < b.Date ? -1 : a.Date > b.Date ? 1 : rank.get(a.Channel)! - rank.get(b.Channel)!));
}

/** Registrations per day, with how many came through an invitation. */
export function registrationsPerDay(rows: Array<{ created_time: number; inviter_id: number }>): AnalyticsPeriod['user_statistics'] {
  const byDay = new Map<string, { date: string; user_count: number; inviter_user_count: number }>();
  for (const u of rows) {
    const date = dayOf(u.created_time);
    const e = byDay.get(date) ?? { date, user_count: 0, inviter_user_count: 0 };
    e.user_count += 1;
    if (u.inviter_id > 0) e.inviter_user_count += 1;
    byDay.set(date, e);
  }
  return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** Redeemed quota per day; `user_count` counts distinct redeemers (the original counted creators, §31.14). */
export function redemptionsPerDay(rows: Array<{ redeemed_time: number; quota: number; used_user_id: number }>): AnalyticsPeriod['redemption_statistics'] {
  const byDay = new Map<string, { quota: number; users: Set<number> }>();
  for (const r of rows) {
    const date = dayOf(r.redeemed_time);
    const e = byDay.get(date) ?? { quota: 0, users: new Set<number>() };
    e.quota += Number(r.quota);
    if (r.used_user_id) e.users.add(r.used_user_id);
    byDay.set(date, e);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, e]) => ({ date, quota: e.quota, user_count: e.users.size }));
}

/** Paid amounts per day, summed across currencies as the original does. */
export function ordersPerDay(rows: Array<{ created_at: number; order_amount: number }>): AnalyticsPeriod['order_statistics'] {
  const byDay = new Map<string, number>();
  for (const o of rows) byDay.set(dayOf(o.created_at), (byDay.get(dayOf(o.created_at)) ?? 0) + Number(o.order_amount));
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, order_amount]) => ({ date, order_amount: Math.round(order_amount * 100) / 100 }));
}

/** Share of the per-minute allowance used, as a percentage with two decimals (0 when there is no allowance). */
export function usageRate(used: number, max: number): number {
  return max > 0 ? Math.floor((used / max) * 10_000) / 100 : 0;
}

/** CSV with RFC 4180 quoting. */
export function toCsv(header: string[], rows: Array<Array<string | number>>): string {
  const cell = (v: string | number) => {
    const s = String(v);
    // A leading =, +, - or @ would run as a formula in spreadsheets.
    const safe = /^[=+\-@]/.test(s) && typeof v === 'string' ? `'${s}` : s;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
