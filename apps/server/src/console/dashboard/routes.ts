import type { FastifyInstance } from 'fastify';
import { AnalyticsPeriodQuery, MultiUserStatsQuery, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';
import { uptimeKumaPage } from './uptime-kuma.js';
import { registerInvoiceRoutes } from './invoice-routes.js';

/** The user dashboard and the admin analytics of api.md §26, read from the daily roll-up. */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = { preHandler: requireRole(ctx, ROLE.common) };
  const admin = { preHandler: requireRole(ctx, ROLE.admin) };

  app.get('/user/dashboard', user, async (req) => ok(await service.userDashboard(ctx, req.user!.id)));
  app.get('/user/dashboard/rate', user, async (req) => ok(await service.dashboardRate(ctx, req.user!)));
  app.get('/user/dashboard/uptimekuma/status-page', user, async (_req, reply) => {
    const page = await uptimeKumaPage(ctx, 'page');
    return reply.header('content-type', page.contentType).send(page.body);
  });
  app.get('/user/dashboard/uptimekuma/status-page/heartbeat', user, async (_req, reply) => {
    const page = await uptimeKumaPage(ctx, 'heartbeat');
    return reply.header('content-type', page.contentType).send(page.body);
  });
  registerInvoiceRoutes(app, ctx);
  app.get('/analytics/statistics', admin, async () => ok(await service.analyticsTotals(ctx)));
  app.get('/analytics/period', admin, async (req) => ok(await service.analyticsPeriod(ctx, parse(AnalyticsPeriodQuery, req.query))));
  app.get('/analytics/multi_user_stats', admin, async (req) => {
    const stats = await service.multiUserStats(ctx, parse(MultiUserStatsQuery, req.query));
    return { success: true, message: '', data: stats.data, model_usage: stats.model_usage };
  });
  app.get('/analytics/multi_user_stats/export', admin, async (req, reply) => {
    const q = parse(MultiUserStatsQuery, req.query);
    const csv = service.multiUserStatsCsv(await service.multiUserStats(ctx, q));
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename=multi_user_stats_${q.start_time}_${q.end_time}.csv`);
    return csv;
  });
}
