import { CHANNEL_STATUS, OTHER_SERIES, REDEMPTION_STATUS, REST_SERIES, type AnalyticsPeriod, type AnalyticsTotals, type MultiUserStats } from '@one-hub/contract';
import { quotaDollars, stackBy, sumPerDay, type Series } from '../../lib/chart-data';

export interface TotalsCards {
  usedQuota: number;
  balanceQuota: number;
  users: number;
  invitedUsers: number;
  directUsers: number;
  channels: number;
  activeChannels: number;
  disabledChannels: number;
  testDisabledChannels: number;
  redeemedQuota: number;
  orderQuota: number;
  orderMoney: Array<{ currency: string; money: number }>;
}

/** The four top cards from GET /api/analytics/statistics. */
export function totalsCards(s: AnalyticsTotals): TotalsCards {
  const channels = (status: number) => s.channel_statistics.filter((c) => c.status === status).reduce((a, c) => a + c.total_channels, 0);
  const u = s.user_statistics;
  return {
    usedQuota: u.total_used_quota,
    balanceQuota: u.total_quota,
    users: u.total_user,
    invitedUsers: u.total_inviter_user,
    directUsers: Math.max(0, u.total_user - u.total_inviter_user),
    channels: s.channel_statistics.reduce((a, c) => a + c.total_channels, 0),
    activeChannels: channels(CHANNEL_STATUS.enabled),
    disabledChannels: channels(CHANNEL_STATUS.manuallyDisabled),
    testDisabledChannels: channels(CHANNEL_STATUS.autoDisabled),
    redeemedQuota: s.redemption_statistic.filter((r) => r.status === REDEMPTION_STATUS.used).reduce((a, r) => a + r.quota, 0),
    orderQuota: s.order_statistics.reduce((a, o) => a + o.quota, 0),
    orderMoney: s.order_statistics.map((o) => ({ currency: o.order_currency, money: o.money })),
  };
}

export interface PeriodCharts {
  cost: Series[];
  tokens: Series[];
  requests: Series[];
  redeemed: number[];
  redeemers: number[];
  direct: number[];
  invited: number[];
  orders: number[];
}

/** The labels the console asks the period for; the long tail comes folded into REST_SERIES. */
export const PERIOD_TOP = 12;

/**
 * Every chart of the overview panel, one value per day of the range (zeros where nothing happened);
 * OTHER_SERIES is named `names.other`, the folded REST_SERIES `names.rest` and stacked last.
 */
export function periodCharts(p: AnalyticsPeriod, days: string[], quotaPerUnit: number, names = { other: 'other', rest: 'rest' }): PeriodCharts {
  const label = (name: string) => (name === OTHER_SERIES ? names.other : name);
  const usage = (value: (r: AnalyticsPeriod['channel_statistics'][number]) => number) => {
    const series = stackBy(p.channel_statistics, days, (r) => r.Date, (r) => label(r.Channel), value);
    const rest = series.filter((s) => s.name === REST_SERIES).map((s) => ({ ...s, name: names.rest }));
    return [...series.filter((s) => s.name !== REST_SERIES), ...rest];
  };
  const registered = sumPerDay(p.user_statistics, days, (r) => r.date, (r) => r.user_count);
  const invited = sumPerDay(p.user_statistics, days, (r) => r.date, (r) => r.inviter_user_count);
  return {
    cost: usage((r) => r.Quota).map((s) => ({ name: s.name, data: s.data.map((q) => quotaDollars(q, quotaPerUnit)) })),
    tokens: usage((r) => r.PromptTokens + r.CompletionTokens),
    requests: usage((r) => r.RequestCount),
    redeemed: sumPerDay(p.redemption_statistics, days, (r) => r.date, (r) => quotaDollars(r.quota, quotaPerUnit)),
    redeemers: sumPerDay(p.redemption_statistics, days, (r) => r.date, (r) => r.user_count),
    direct: registered.map((n, i) => Math.max(0, n - invited[i])),
    invited,
    orders: sumPerDay(p.order_statistics, days, (r) => r.date, (r) => r.order_amount),
  };
}

/** Requests per model for each user of the multi-user statistics, as stacked series over the users. */
export function modelUsageSeries(stats: MultiUserStats): { users: string[]; series: Series[] } {
  const users = stats.data.map((u) => u.username);
  const index = new Map(users.map((u, i) => [u, i]));
  const byModel = new Map<string, number[]>();
  for (const m of stats.model_usage) {
    const i = index.get(m.username);
    if (i === undefined) continue;
    if (!byModel.has(m.model_name)) byModel.set(m.model_name, users.map(() => 0));
    byModel.get(m.model_name)![i] += m.request_count;
  }
  return { users, series: [...byModel.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, data]) => ({ name, data })) };
}

/** The file name a `content-disposition` header offers, or the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  const m = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return m ? decodeURIComponent(m[1]) : fallback;
}

/** Comma-separated usernames, trimmed, blanks and repeats dropped. */
export function parseUsernames(text: string): string[] {
  return [...new Set(text.split(/[,，\s]+/).map((s) => s.trim()).filter(Boolean))];
}
