import { z } from 'zod';
import { text } from './format/text.js';

/** GET /api/user/dashboard row (the original's capitalised keys). A day without usage has one row with ModelName ''. */
export interface DashboardRow {
  Date: string;
  ModelName: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
  RequestTime: number;
}

/** GET /api/user/dashboard/rate. */
export interface DashboardRate {
  rpm: number;
  maxRPM: number;
  usageRpmRate: number;
  tpm: number;
  maxTPM: number;
  usageTpmRate: number;
}

/** GET /api/analytics/statistics. */
export interface AnalyticsTotals {
  user_statistics: { total_quota: number; total_used_quota: number; total_user: number; total_inviter_user: number };
  channel_statistics: Array<{ status: number; total_channels: number }>;
  redemption_statistic: Array<{ status: number; count: number; quota: number }>;
  order_statistics: Array<{ order_currency: string; quota: number; money: number }>;
}

/** The series label of usage without a name in its grouping (a model without an owner); the console shows "other". */
export const OTHER_SERIES = '';
/** The series label the long tail is folded into when the period is asked for its `top` labels only; the console shows "everything else". */
export const REST_SERIES = '<rest>';
/** The most labels a period may keep before folding the rest. */
export const PERIOD_TOP_MAX = 50;

/** One point of a per-day series; `Channel` is the series label (channel, model or owner name). */

export interface PeriodSeriesPoint {
  Date: string;
  Channel: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
  RequestTime: number;
}

/** GET /api/analytics/period. */
export interface AnalyticsPeriod {
  user_statistics: Array<{ date: string; user_count: number; inviter_user_count: number }>;
  channel_statistics: PeriodSeriesPoint[];
  redemption_statistics: Array<{ date: string; quota: number; user_count: number }>;
  order_statistics: Array<{ date: string; order_amount: number }>;
}

export const AnalyticsPeriodQuery = z
  .object({
    start_timestamp: z.coerce.number().int().min(0),
    end_timestamp: z.coerce.number().int().min(0),
    group_type: z.enum(['model', 'model_type', 'channel']).default('channel'),
    user_id: z.coerce.number().int().min(0).default(0),
    // Absent: every label, as the original answers. Present: the `top` labels by quota over the range, the rest as REST_SERIES.
    top: z.coerce.number().int().min(1).max(PERIOD_TOP_MAX).optional(),
  })
  .refine((q) => q.end_timestamp >= q.start_timestamp, { message: 'end_timestamp must not be before start_timestamp', path: ['end_timestamp'] });
export type AnalyticsPeriodQuery = z.infer<typeof AnalyticsPeriodQuery>;

const isoDay = (what: string) =>
  text({ error: `invalid ${what} format, expected YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `invalid ${what} format, expected YYYY-MM-DD`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), `invalid ${what} format, expected YYYY-MM-DD`);

export const MultiUserStatsQuery = z
  .object({
    usernames: text({ error: 'invalid parameters: usernames is required' })
      .transform((s) => [...new Set(s.split(',').map((u) => u.trim()).filter(Boolean))])
      .refine((list) => list.length > 0 && list.length <= 200, 'invalid parameters: usernames must list 1 to 200 names'),
    start_time: isoDay('start_time'),
    end_time: isoDay('end_time'),
  })
  .refine((q) => q.end_time >= q.start_time, { message: 'invalid parameters: end_time is before start_time', path: ['end_time'] });
export type MultiUserStatsQuery = z.infer<typeof MultiUserStatsQuery>;

export interface UserUsageTotals {
  username: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

/** GET /api/analytics/multi_user_stats: `data` plus a top-level `model_usage`. */
export interface MultiUserStats {
  data: UserUsageTotals[];
  model_usage: Array<{ username: string; model_name: string; request_count: number }>;
}

/** One month of a user's bill (GET /api/user/invoice); `date` is the month's first day. */
export interface InvoiceMonth {
  date: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

/** One model's line in a monthly bill (GET /api/user/invoice/detail). */
export interface InvoiceLine extends InvoiceMonth {
  model_name: string;
}

const calendarDay = (message: string) =>
  text({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((d) => {
      // Date.parse accepts 2024-02-30 (rolling over), so the day must read back unchanged.
      const ms = Date.parse(`${d}T00:00:00Z`);
      return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === d;
    }, message);

/** GET /api/user/invoice/detail?date=YYYY-MM-DD: any day of the month (its first day is meant). */
export const InvoiceDetailQuery = z.object({ date: calendarDay('无效的日期格式') });

/** POST /api/option/invoice/{gen,update}/:time: any day of the month to bill. */
export const InvoiceMonthParams = z.object({ time: calendarDay('invalid time format') });
