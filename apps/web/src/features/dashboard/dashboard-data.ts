import type { AvailableModel, DashboardRow, ModelOwner } from '@one-hub/contract';
import { quotaDollars, stackBy, sumPerDay, trendPercent, type Series } from '../../lib/chart-data';

export interface DayTotals {
  date: string;
  requests: number;
  quota: number;
  promptTokens: number;
  completionTokens: number;
  /** Milliseconds spent on requests that day. */
  requestTime: number;
}

/** One entry per day of the window (zeros where the server sent nothing), oldest first. */
export function dailyTotals(rows: DashboardRow[], days: string[]): DayTotals[] {
  const per = (value: (r: DashboardRow) => number) => sumPerDay(rows, days, (r) => r.Date, value);
  const requests = per((r) => r.RequestCount);
  const quota = per((r) => r.Quota);
  const prompt = per((r) => r.PromptTokens);
  const completion = per((r) => r.CompletionTokens);
  const time = per((r) => r.RequestTime);
  return days.map((date, i) => ({ date, requests: requests[i], quota: quota[i], promptTokens: prompt[i], completionTokens: completion[i], requestTime: time[i] }));
}

export interface StatCardData {
  today: number;
  trend: number;
  series: number[];
}

/** Today's value, the change against yesterday and the sparkline of one daily figure. */
export function statCard(values: number[]): StatCardData {
  const today = values.at(-1) ?? 0;
  const yesterday = values.at(-2) ?? 0;
  return { today, trend: trendPercent(today, yesterday), series: values };
}

/** Stacked per-model cost in dollars (3 decimals) per day. */
export const modelCostSeries = (rows: DashboardRow[], days: string[], quotaPerUnit: number): Series[] =>
  stackBy(rows, days, (r) => r.Date, (r) => r.ModelName, (r) => r.Quota).map((s) => ({ name: s.name, data: s.data.map((q) => quotaDollars(q, quotaPerUnit)) }));

/** Requests per model over the window, largest first. */
export function modelRequestShares(rows: DashboardRow[]): Array<{ name: string; value: number }> {
  const byModel = new Map<string, number>();
  for (const r of rows) if (r.ModelName && r.RequestCount > 0) byModel.set(r.ModelName, (byModel.get(r.ModelName) ?? 0) + r.RequestCount);
  return [...byModel.entries()].map(([name, value]) => ({ name, value })).sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}

/** RPM bar colour: green up to 50 %, amber above, red above 80 %. */
export function rpmColour(rate: number): 'success' | 'warning' | 'error' {
  if (rate > 80) return 'error';
  if (rate > 50) return 'warning';
  return 'success';
}

export interface ProviderModels {
  owner: string;
  icon: string;
  models: string[];
}

/** Available models grouped by owner, owners in their id order (unknown owners last, by name), models alphabetical. */
export function modelsByProvider(models: Record<string, AvailableModel>, owners: ModelOwner[]): ProviderModels[] {
  const ownerByName = new Map(owners.map((o) => [o.name, o]));
  const groups = new Map<string, string[]>();
  for (const [name, m] of Object.entries(models)) {
    const owner = m.owned_by || 'unknown';
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner)!.push(name);
  }
  const rank = (name: string) => ownerByName.get(name)?.id ?? Number.MAX_SAFE_INTEGER;
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([owner, list]) => ({ owner, icon: ownerByName.get(owner)?.icon ?? '', models: list.sort((a, b) => a.localeCompare(b)) }));
}
