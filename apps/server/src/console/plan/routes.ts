import type { FastifyInstance } from 'fastify';
import { BuyPlanBody, GrantPlanBody, IdParam, PlanBody, PlanFallbackBody, ROLE, SubscriptionListQuery, UpdatePlanBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';

/** Subscription plans: admin CRUD, grants and cancellations; users list public plans, buy, and read their own. */
export function registerPlanRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  const user = requireRole(ctx, ROLE.common);
  app.get('/plan/public', { preHandler: user }, async () => ok(await service.listPublicPlans(ctx)));
  app.get('/plan/self', { preHandler: user }, async (req) => ok(await service.mySubscriptions(ctx, req.user!)));
  app.put('/plan/self/fallback', { preHandler: user }, async (req) => {
    await service.setFallback(ctx, req.user!.id, parse(PlanFallbackBody, req.body).enabled);
    return ok();
  });
  app.post('/plan/buy', { preHandler: user }, async (req) => {
    const body = parse(BuyPlanBody, req.body);
    const { message, data } = await service.buyPlan(ctx, req.user!, body.plan_id, body.uuid);
    return ok(data, message);
  });

  app.get('/plan/', { preHandler: admin }, async () => ok(await service.listAllPlans(ctx)));
  app.get('/plan/subscription', { preHandler: admin }, async (req) => {
    return ok(await service.subscriptionsOf(ctx, parse(SubscriptionListQuery, req.query).user_id, false));
  });
  app.post('/plan/grant', { preHandler: admin }, async (req) => {
    const body = parse(GrantPlanBody, req.body);
    return ok({ id: await service.adminGrant(ctx, req.user!.id, body.user_id, body.plan_id) });
  });
  app.delete('/plan/subscription/:id', { preHandler: admin }, async (req) => {
    await service.adminCancel(ctx, parse(IdParam, req.params).id);
    return ok();
  });
  app.get('/plan/:id', { preHandler: admin }, async (req) => ok(await service.getPlan(ctx, parse(IdParam, req.params).id)));
  app.post('/plan/', { preHandler: admin }, async (req) => ok(await service.createPlan(ctx, parse(PlanBody, req.body))));
  app.put('/plan/', { preHandler: admin }, async (req) => ok(await service.updatePlanById(ctx, parse(UpdatePlanBody, req.body))));
  app.delete('/plan/:id', { preHandler: admin }, async (req) => {
    await service.removePlan(ctx, parse(IdParam, req.params).id);
    return ok();
  });
}
