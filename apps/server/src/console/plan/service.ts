import type { z } from 'zod';
import type { Plan, PlanDurationKind, PlanInput, PlanWindowKind, Subscription, SubscriptionSource, UpdatePlanBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { apiError } from '../../common/errors.js';
import { planWindowKey, windowAt } from '../../common/plan-window.js';
import { nowSeconds } from '../../common/time.js';
import type { Insertable } from 'kysely';
import type { PlansTable } from '../../db/schema.js';
import type { UserRow } from '../../db/repos/users.js';
import { findUserById, usernamesOf } from '../../db/repos/users.js';
import {
  cancelSubscription,
  findPlan,
  insertPlan,
  latestEndOfPlan,
  listPlans,
  listSubscriptions,
  readNameList,
  readWindowUsage,
  setPlanFallback,
  softDeletePlan,
  updatePlan,
  type PlanRow,
  type SubscriptionRow,
} from '../../db/repos/plans.js';
import { grantPlan, subscriptionsChanged } from './grant.js';
import { createPlanOrder, STALE_ORDER_SECONDS, type OrderGuard } from '../payment/service.js';
import { hasPendingPlanOrder } from '../../db/repos/orders.js';

export function toPlanJson(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    price: Number(row.price_cents) / 100,
    currency: row.currency,
    duration_kind: row.duration_kind as PlanDurationKind,
    duration_count: Number(row.duration_count),
    window_kind: row.window_kind as PlanWindowKind,
    window_quota: Number(row.window_quota),
    groups: readNameList(row.groups),
    models: readNameList(row.models),
    renews: row.renews === 1,
    public: row.public === 1,
    enabled: row.enabled === 1,
    sort: Number(row.sort),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function toColumns(body: Partial<PlanInput>): Partial<Insertable<PlansTable>> {
  const out: Partial<Insertable<PlansTable>> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description;
  if (body.price !== undefined) out.price_cents = Math.round(body.price * 100);
  if (body.currency !== undefined) out.currency = body.currency;
  if (body.duration_kind !== undefined) out.duration_kind = body.duration_kind;
  if (body.duration_count !== undefined) out.duration_count = body.duration_count;
  if (body.window_kind !== undefined) out.window_kind = body.window_kind;
  if (body.window_quota !== undefined) out.window_quota = body.window_quota;
  if (body.groups !== undefined) out.groups = JSON.stringify(body.groups);
  if (body.models !== undefined) out.models = JSON.stringify(body.models);
  if (body.renews !== undefined) out.renews = body.renews ? 1 : 0;
  if (body.public !== undefined) out.public = body.public ? 1 : 0;
  if (body.enabled !== undefined) out.enabled = body.enabled ? 1 : 0;
  if (body.sort !== undefined) out.sort = body.sort;
  return out;
}

const plansChanged = (ctx: AppContext) => ctx.store.publish(EVENTS.plans, '');

async function loadPlan(ctx: AppContext, id: number): Promise<PlanRow> {
  const row = await findPlan(ctx.db, id);
  if (!row) throw apiError(404, 'plan_not_found');
  return row;
}

export const listAllPlans = async (ctx: AppContext) => (await listPlans(ctx.db)).map(toPlanJson);
export const listPublicPlans = async (ctx: AppContext) => (await listPlans(ctx.db, true)).map(toPlanJson);
export const getPlan = async (ctx: AppContext, id: number) => toPlanJson(await loadPlan(ctx, id));

export async function createPlan(ctx: AppContext, body: PlanInput): Promise<Plan> {
  const now = nowSeconds();
  const id = await insertPlan(ctx.db, { ...(toColumns(body) as Insertable<PlansTable>), name: body.name, created_at: now, updated_at: now });
  await plansChanged(ctx);
  return getPlan(ctx, id);
}

export async function updatePlanById(ctx: AppContext, body: z.infer<typeof UpdatePlanBody>): Promise<Plan> {
  const { id, ...rest } = body;
  if (!(await updatePlan(ctx.db, id, { ...toColumns(rest), updated_at: nowSeconds() }))) throw apiError(404, 'plan_not_found');
  await plansChanged(ctx);
  return getPlan(ctx, id);
}

/** Soft delete: running subscriptions keep their plan until they end; nobody can obtain it any more. */
export async function removePlan(ctx: AppContext, id: number): Promise<void> {
  if (!(await softDeletePlan(ctx.db, id, nowSeconds()))) throw apiError(404, 'plan_not_found');
  await plansChanged(ctx);
}

/** A subscription as its holder sees it: status, and the current window's spend and reset time. */
export async function toSubscriptionJson(ctx: AppContext, row: SubscriptionRow, plans: Map<number, PlanRow>, now = nowSeconds()): Promise<Subscription> {
  const plan = plans.get(row.plan_id);
  const kind = (plan?.window_kind ?? 'period') as PlanWindowKind;
  const w = windowAt(kind, row.start_at, row.end_at, now);
  const status = row.status === 'cancelled' ? 'cancelled' : row.end_at <= now ? 'expired' : row.start_at > now ? 'pending' : 'active';
  let used = 0;
  if (status === 'active') {
    const live = await ctx.store.get(planWindowKey(row.id, w.start));
    used = live === null ? await readWindowUsage(ctx.db, row.id, w.start) : Number(live);
  }
  return {
    id: row.id,
    user_id: row.user_id,
    plan_id: row.plan_id,
    plan_name: plan?.name ?? '',
    start_at: Number(row.start_at),
    end_at: Number(row.end_at),
    status,
    source: row.source as SubscriptionSource,
    window_kind: kind,
    window_quota: Number(plan?.window_quota ?? 0),
    window_start: w.start,
    window_end: w.end,
    window_used: Math.max(0, used),
    groups: readNameList(plan?.groups ?? null),
    models: readNameList(plan?.models ?? null),
  };
}

/** Every plan including deleted ones (a subscription outlives its plan's deletion). */
async function plansById(ctx: AppContext): Promise<Map<number, PlanRow>> {
  const rows = await ctx.db.selectFrom('plans').selectAll().execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export async function subscriptionsOf(ctx: AppContext, userId: number | undefined, onlyCurrent: boolean): Promise<Subscription[]> {
  const [rows, plans] = await Promise.all([listSubscriptions(ctx.db, userId), plansById(ctx)]);
  const now = nowSeconds();
  const all = await Promise.all(rows.map((r) => toSubscriptionJson(ctx, r, plans, now)));
  if (!onlyCurrent) {
    // The admin list names each subscriber.
    const names = await usernamesOf(ctx.db, rows.map((r) => r.user_id));
    for (const s of all) s.username = names.get(s.user_id) ?? '';
  }
  return onlyCurrent ? all.filter((s) => s.status === 'active' || s.status === 'pending').sort((a, b) => a.end_at - b.end_at) : all;
}

/** The user's own page: current subscriptions and the fall-back switch. */
export async function mySubscriptions(ctx: AppContext, user: UserRow) {
  return { fallback: user.plan_fallback === 1, subscriptions: await subscriptionsOf(ctx, user.id, true) };
}

export async function setFallback(ctx: AppContext, userId: number, enabled: boolean): Promise<void> {
  await setPlanFallback(ctx.db, userId, enabled);
  // The relay reads the switch from its cached user row.
  await ctx.store.publish(EVENTS.users, String(userId));
}

/** An admin gives a user a plan (disabled and private plans too: the admin decides). */
export async function adminGrant(ctx: AppContext, adminId: number, userId: number, planId: number): Promise<number> {
  const plan = await loadPlan(ctx, planId);
  if (!(await findUserById(ctx.db, userId))) throw apiError(404, 'user_not_found', undefined, { message: 'user not found' });
  const id = await grantPlan(ctx.db, userId, plan, 'admin', String(adminId), nowSeconds());
  await subscriptionsChanged(ctx, userId);
  return id;
}

export async function adminCancel(ctx: AppContext, id: number): Promise<void> {
  const row = await ctx.db.selectFrom('subscriptions').select(['user_id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw apiError(404, 'subscription_not_found');
  if (!(await cancelSubscription(ctx.db, id))) throw apiError(409, 'subscription_cancelled');
  await subscriptionsChanged(ctx, row.user_id);
}

/** The default plan of new users (option DefaultPlanId), when it names a live plan. */
export async function grantDefaultPlan(ctx: AppContext, userId: number): Promise<void> {
  const id = ctx.options.get('DefaultPlanId');
  if (!id) return;
  const plan = await findPlan(ctx.db, id);
  if (!plan || plan.enabled !== 1) return;
  await grantPlan(ctx.db, userId, plan, 'default', '', nowSeconds());
  await subscriptionsChanged(ctx, userId);
}

/** Buys a public, enabled plan through a payment gateway; the subscription starts when the gateway notifies payment. */
export async function buyPlan(ctx: AppContext, user: UserRow, planId: number, uuid: string) {
  const plan = await findPlan(ctx.db, planId);
  if (!plan || plan.enabled !== 1 || plan.public !== 1) throw apiError(404, 'plan_not_found');
  if (plan.price_cents <= 0) throw apiError(400, 'plan_not_sold');
  // A plan that does not renew is held once: no second order while one is being paid or it runs.
  const once: OrderGuard | undefined =
    plan.renews === 1
      ? undefined
      : async (db) => {
          const now = nowSeconds();
          if ((await latestEndOfPlan(db, user.id, plan.id, now)) !== undefined) {
            throw apiError(409, 'plan_held');
          }
          if (await hasPendingPlanOrder(db, user.id, plan.id, now - STALE_ORDER_SECONDS)) {
            throw apiError(409, 'plan_order_pending');
          }
        };
  await once?.(ctx.db);
  return createPlanOrder(ctx, user, uuid, { id: plan.id, name: plan.name, price: Number(plan.price_cents) / 100, currency: plan.currency }, once);
}
