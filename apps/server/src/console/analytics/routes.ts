import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { HubError } from '../../common/errors.js';

const PeriodQuery = z.object({
  start_timestamp: z.coerce.number().int().min(0),
  end_timestamp: z.coerce.number().int().min(0),
  group_type: z.enum(['model', 'model_type', 'channel']).default('channel'),
  user_id: z.coerce.number().int().min(0).default(0),
});

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Admin analytics (api.md §26): totals, and per-day series from the daily roll-up. */
export function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { preHandler: requireRole(ctx, ROLE.admin) };
  const db = ctx.db;

  app.get('/analytics/statistics', admin, async () => {
    const users = await db
      .selectFrom('users')
      .where('deleted_at', 'is', null)
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('total_quota'),
        eb.fn.coalesce(eb.fn.sum<number>('used_quota'), eb.lit(0)).as('total_used_quota'),
        eb.fn.countAll<number>().as('total_user'),
        eb.fn.sum<number>(eb.case().when('inviter_id', '>', 0).then(1).else(0).end()).as('total_inviter_user'),
      ])
      .executeTakeFirstOrThrow();
    const channels = await db
      .selectFrom('channels')
      .where('deleted_at', 'is', null)
      .select((eb) => ['status', eb.fn.countAll<number>().as('total_channels')])
      .groupBy('status')
      .execute();
    const redemptions = await db
      .selectFrom('redemptions')
      .where('status', '!=', 2)
      .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('quota').as('quota')])
      .groupBy('status')
      .execute();
    const orders = await db
      .selectFrom('orders')
      .where('status', '=', 'success')
      .select((eb) => ['order_currency', eb.fn.sum<number>('quota').as('quota'), eb.fn.sum<number>('order_amount').as('money')])
      .groupBy('order_currency')
      .execute();
    const num = (v: unknown) => Number(v ?? 0);
    return ok({
      user_statistics: {
        total_quota: num(users.total_quota),
        total_used_quota: num(users.total_used_quota),
        total_user: num(users.total_user),
        total_inviter_user: num(users.total_inviter_user),
      },
      channel_statistics: channels.map((c) => ({ status: c.status, total_channels: num(c.total_channels) })),
      redemption_statistic: redemptions.map((r) => ({ status: r.status, count: num(r.count), quota: num(r.quota) })),
      order_statistics: orders.map((o) => ({ order_currency: o.order_currency, quota: num(o.quota), money: num(o.money) })),
    });
  });

  app.get('/analytics/period', admin, async (req) => {
    const q = parse(PeriodQuery, req.query);
    if (q.end_timestamp < q.start_timestamp) throw new HubError(400, 'end_timestamp must not be before start_timestamp');
    const from = day(q.start_timestamp);
    const to = day(q.end_timestamp);
    let stats = db
      .selectFrom('statistics')
      .leftJoin('channels', 'channels.id', 'statistics.channel_id')
      .leftJoin('prices', 'prices.model', 'statistics.model_name')
      .leftJoin('model_owned_by', 'model_owned_by.id', 'prices.channel_type')
      .where('statistics.date', '>=', from)
      .where('statistics.date', '<=', to);
    if (q.user_id) stats = stats.where('statistics.user_id', '=', q.user_id);
    const rows = await stats
      .select(['statistics.date', 'statistics.model_name', 'statistics.request_count', 'statistics.quota', 'statistics.prompt_tokens', 'statistics.completion_tokens', 'statistics.request_time', 'statistics.channel_id', 'channels.name as channel_name', 'model_owned_by.name as owner_name'])
      .execute();
    const series = new Map<string, { Date: string; Channel: string; RequestCount: number; Quota: number; PromptTokens: number; CompletionTokens: number; RequestTime: number }>();
    for (const r of rows) {
      const label = q.group_type === 'model' ? r.model_name : q.group_type === 'model_type' ? r.owner_name : (r.channel_name ?? `#${r.channel_id}`);
      if (!label) continue; // model_type without a known owner is left out, as the original does
      const key = `${r.date}|${label}`;
      const s = series.get(key) ?? { Date: r.date, Channel: label, RequestCount: 0, Quota: 0, PromptTokens: 0, CompletionTokens: 0, RequestTime: 0 };
      s.RequestCount += Number(r.request_count);
      s.Quota += Number(r.quota);
      s.PromptTokens += Number(r.prompt_tokens);
      s.CompletionTokens += Number(r.completion_tokens);
      s.RequestTime += Number(r.request_time);
      series.set(key, s);
    }
    const registrations = await db
      .selectFrom('users')
      .where('created_time', '>=', q.start_timestamp)
      .where('created_time', '<=', q.end_timestamp)
      .select(['created_time', 'inviter_id'])
      .execute();
    const byDay = new Map<string, { date: string; user_count: number; inviter_user_count: number }>();
    for (const u of registrations) {
      const d = day(u.created_time);
      const e = byDay.get(d) ?? { date: d, user_count: 0, inviter_user_count: 0 };
      e.user_count += 1;
      if (u.inviter_id > 0) e.inviter_user_count += 1;
      byDay.set(d, e);
    }
    return ok({
      user_statistics: [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date)),
      channel_statistics: [...series.values()].sort((a, b) => a.Date.localeCompare(b.Date) || a.Channel.localeCompare(b.Channel)),
    });
  });
}
