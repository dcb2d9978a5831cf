import type { FastifyInstance } from 'fastify';
import { IdParam, ModelLimitsSchema, RequestLimitsSchema, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';

/** Request limits a user cannot set on their own tokens: per user (admin) and per model in a group. */
export function registerLimitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  app.get('/limits/user/:id', { preHandler: admin }, async (req) => ok(await service.userLimits(ctx, req.user!, parse(IdParam, req.params).id)));
  app.put('/limits/user/:id', { preHandler: admin }, async (req) => {
    await service.setUserLimits(ctx, req.user!, parse(IdParam, req.params).id, parse(RequestLimitsSchema, req.body));
    return ok();
  });
  app.get('/limits/group/:id', { preHandler: admin }, async (req) => ok(await service.groupModelLimits(ctx, parse(IdParam, req.params).id)));
  app.put('/limits/group/:id', { preHandler: admin }, async (req) => {
    await service.setGroupModelLimits(ctx, parse(IdParam, req.params).id, parse(ModelLimitsSchema, req.body));
    return ok();
  });
}
