import { z } from 'zod';
import { text } from './format/text.js';
import { PAYMENT_CURRENCIES } from './payment.js';

/** How long one subscription lasts: `duration_count` days, calendar weeks or calendar months. */
export const PLAN_DURATION_KINDS = ['day', 'week', 'month'] as const;
export type PlanDurationKind = (typeof PLAN_DURATION_KINDS)[number];

/** The window the included quota refills in: 5-hour blocks from the start, UTC day, UTC week (Monday), or the whole period. */
export const PLAN_WINDOW_KINDS = ['5h', 'day', 'week', 'period'] as const;
export type PlanWindowKind = (typeof PLAN_WINDOW_KINDS)[number];

/** Where a subscription came from. */
export const SUBSCRIPTION_SOURCES = ['order', 'redemption', 'admin', 'default'] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

export interface Plan {
  id: number;
  name: string;
  description: string;
  /** In `currency`, two decimals. */
  price: number;
  currency: string;
  duration_kind: PlanDurationKind;
  duration_count: number;
  window_kind: PlanWindowKind;
  /** Quota units a window includes. */
  window_quota: number;
  /** Groups and models the plan pays for; empty = every group / every model. */
  groups: string[];
  models: string[];
  /** A holder may buy it again while it runs; the new period starts when the current one ends. */
  renews: boolean;
  public: boolean;
  enabled: boolean;
  sort: number;
  created_at: number;
  updated_at: number;
}

export interface Subscription {
  id: number;
  user_id: number;
  /** The subscriber's username: in the admin list only. */
  username?: string;
  plan_id: number;
  plan_name: string;
  start_at: number;
  end_at: number;
  status: 'active' | 'pending' | 'expired' | 'cancelled';
  source: SubscriptionSource;
  window_kind: PlanWindowKind;
  window_quota: number;
  /** The current window (or the first one of a subscription that has not started). */
  window_start: number;
  window_end: number;
  /** Quota spent (and held by requests in flight) in the current window. */
  window_used: number;
  groups: string[];
  models: string[];
}

const name = text().trim().min(1, 'name is required').max(64, 'name must be at most 64 characters');
const list = z
  .array(text().trim().min(1).max(255))
  .max(500, 'at most 500 entries')
  .transform((xs) => [...new Set(xs)]);

const planFields = {
  name,
  description: text().max(2000).default(''),
  price: z.coerce.number().min(0, 'price must not be negative').max(1_000_000, 'price must not exceed 1000000').multipleOf(0.01, 'price has at most two decimals'),
  currency: z.enum(PAYMENT_CURRENCIES, { error: 'currency must be CNY or USD' }),
  duration_kind: z.enum(PLAN_DURATION_KINDS, { error: 'duration_kind must be day, week or month' }),
  duration_count: z.coerce.number().int('duration_count must be a whole number').min(1, 'duration_count must be at least 1').max(3650),
  window_kind: z.enum(PLAN_WINDOW_KINDS, { error: 'window_kind must be 5h, day, week or period' }),
  window_quota: z.coerce.number().int('window_quota must be a whole number').min(1, 'window_quota must be at least 1').max(1e15),
  groups: list.default([]),
  models: list.default([]),
  renews: z.boolean().default(false),
  public: z.boolean().default(true),
  enabled: z.boolean().default(true),
  sort: z.coerce.number().int().min(-1_000_000).max(1_000_000).default(0),
};
export const PlanBody = z.object(planFields);
export type PlanInput = z.infer<typeof PlanBody>;

/** Only the fields sent change (no defaults fill in the others). */
export const UpdatePlanBody = z.object(
  Object.fromEntries(Object.entries(planFields).map(([k, v]) => [k, (v instanceof z.ZodDefault ? v.removeDefault() : v).optional()])) as {
    [K in keyof typeof planFields]: z.ZodOptional<(typeof planFields)[K] extends z.ZodDefault<infer T> ? T : (typeof planFields)[K]>;
  },
).extend({ id: z.coerce.number().int().positive() });

export const GrantPlanBody = z.object({
  user_id: z.coerce.number().int().positive('user_id is required'),
  plan_id: z.coerce.number().int().positive('plan_id is required'),
});

export const BuyPlanBody = z.object({
  plan_id: z.coerce.number().int().positive('plan_id is required'),
  uuid: text({ error: 'invalid request' }).trim().min(1, 'invalid request').max(32),
});

export const PlanFallbackBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

export const SubscriptionListQuery = z.object({ user_id: z.coerce.number().int().positive().optional() });
