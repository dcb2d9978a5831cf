import { readLimits } from '@one-hub/contract';
import type { AnalyticsPeriod, AnalyticsPeriodQuery, AnalyticsTotals, DashboardRate, DashboardRow, MultiUserStats, MultiUserStatsQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import type { UserRow } from '../../db/repos/users.js';
import { findUserGroupBySymbol } from '../../db/repos/user-groups.js';
import { relayState } from '../../relay/state.js';
import { periodKeyTotals, periodUsage, modelUsageByUsername, usageTotalsByUsername, userDailyUsage } from '../../db/repos/statistics.js';
import * as analytics from '../../db/repos/analytics.js';
import { dayOf, keptKeys, lastDays, ordersPerDay, periodSeries, redemptionsPerDay, registrationsPerDay, toCsv, usageRate, zeroFilledDashboard } from './series.js';

/** Days the dashboard covers: the seven the console draws (the original answered eight, §31.20). */
export const DASHBOARD_DAYS = 7;

export async function userDashboard(ctx: AppContext, userId: number, nowMs = Date.now()): Promise<DashboardRow[]> {
  const days = lastDays(nowMs, DASHBOARD_DAYS);
  return zeroFilledDashboard(days, await userDailyUsage(ctx.readDb, userId, days[0], days[days.length - 1]));
}

/**
 * Requests this minute against the group's per-minute allowance, as the relay
 * limiter counts them (rpm-window.ts); a user whose group is
 * missing gets 0/0 instead of the original's crash (§31.18).
 */
export async function dashboardRate(ctx: AppContext, user: UserRow): Promise<DashboardRate> {
  const group = await findUserGroupBySymbol(ctx.db, user.group);
  const maxRPM = group && group.enable !== 0 ? Number(group.api_rate) : 0;
  const state = relayState(ctx);
  const rpm = await state.rpm.count(user.id);
  // TPM is the user's own limit (set by an admin), counted by the relay's limit book this UTC minute.
  const maxTPM = readLimits(user.limits)?.tpm ?? 0;
  const tpm = maxTPM ? await state.limits.tokensThisMinute(`u${user.id}`) : 0;
  return { rpm, maxRPM, usageRpmRate: usageRate(rpm, maxRPM), tpm, maxTPM, usageTpmRate: usageRate(tpm, maxTPM) };
}

export async function analyticsTotals(ctx: AppContext): Promise<AnalyticsTotals> {
  const [users, leased, channels, redemptions, orders] = await Promise.all([
    analytics.userTotals(ctx.readDb),
    analytics.leasedUserQuota(ctx.readDb),
    analytics.channelCountsByStatus(ctx.readDb),
    analytics.redemptionCountsByStatus(ctx.readDb),
    analytics.successfulOrderTotalsByCurrency(ctx.readDb),
  ]);
  const num = (v: unknown) => Number(v ?? 0);
  return {
    user_statistics: {
      total_quota: num(users.total_quota) + leased,
      total_used_quota: num(users.total_used_quota),
      total_user: num(users.total_user),
      total_inviter_user: num(users.total_inviter_user),
    },
    channel_statistics: channels.map((c) => ({ status: c.status, total_channels: num(c.total_channels) })),
    redemption_statistic: redemptions.map((r) => ({ status: r.status, count: num(r.count), quota: num(r.quota) })),
    order_statistics: orders.map((o) => ({ order_currency: o.order_currency, quota: num(o.quota), money: num(o.money) })),
  };
}

/** The period's usage series; with `top`, the labels past the top ones are folded into REST_SERIES by the database. */
async function usageSeries(ctx: AppContext, q: AnalyticsPeriodQuery) {
  const [from, to] = [dayOf(q.start_timestamp), dayOf(q.end_timestamp)];
  const keep = q.top ? keptKeys(await periodKeyTotals(ctx.readDb, from, to, q.group_type, q.user_id), q.group_type, q.top) : null;
  return periodSeries(await periodUsage(ctx.readDb, from, to, q.group_type, q.user_id, keep ?? undefined), q.group_type);
}

export async function analyticsPeriod(ctx: AppContext, q: AnalyticsPeriodQuery): Promise<AnalyticsPeriod> {
  const from = q.start_timestamp;
  const to = q.end_timestamp;
  const [usage, registrations, redemptions, orders] = await Promise.all([
    usageSeries(ctx, q),
    analytics.registrationsBetween(ctx.readDb, from, to),
    analytics.redemptionsUsedBetween(ctx.readDb, from, to),
    analytics.successfulOrdersBetween(ctx.readDb, from, to),
  ]);
  return {
    user_statistics: registrationsPerDay(registrations),
    channel_statistics: usage,
    redemption_statistics: redemptionsPerDay(redemptions),
    order_statistics: ordersPerDay(orders),
  };
}

export async function multiUserStats(ctx: AppContext, q: MultiUserStatsQuery): Promise<MultiUserStats> {
  const [totals, models] = await Promise.all([
    usageTotalsByUsername(ctx.readDb, q.usernames, q.start_time, q.end_time),
    modelUsageByUsername(ctx.readDb, q.usernames, q.start_time, q.end_time),
  ]);
  const num = (v: unknown) => Number(v ?? 0);
  return {
    data: totals.map((t) => ({
      username: t.username,
      request_count: num(t.request_count),
      quota: num(t.quota),
      prompt_tokens: num(t.prompt_tokens),
      completion_tokens: num(t.completion_tokens),
      request_time: num(t.request_time),
    })),
    model_usage: models
      .map((m) => ({ username: m.username, model_name: m.model_name, request_count: num(m.request_count) }))
      .sort((a, b) => a.username.localeCompare(b.username) || b.request_count - a.request_count || a.model_name.localeCompare(b.model_name)),
  };
}

export function multiUserStatsCsv(stats: MultiUserStats): string {
  const header = ['Username', 'Request Count', 'Quota', 'Prompt Tokens', 'Completion Tokens', 'Request Time (ms)'];
  return toCsv(header, stats.data.map((u) => [u.username, u.request_count, u.quota, u.prompt_tokens, u.completion_tokens, u.request_time]));
}
