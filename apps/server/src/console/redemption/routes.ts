import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CreateRedemptionBody, IdParam, PageQuery, ROLE, text, UpdateRedemptionBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { REDEMPTION_ORDER_COLUMNS, redemptionListQuery } from '../../db/repos/redemptions.js';
import * as service from './service.js';

const StatusOnly = z.object({ status_only: text().optional() });

export function registerRedemptionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = requireRole(ctx, ROLE.admin);
  app.get('/redemption/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    return ok(await paginate(redemptionListQuery(ctx.db, q.keyword), q, REDEMPTION_ORDER_COLUMNS, service.toRedemptionJson));
  });
  app.get('/redemption/:id', { preHandler: admin }, async (req) => ok(await service.getRedemption(ctx, parse(IdParam, req.params).id)));
  app.post('/redemption/', { preHandler: admin }, async (req) => {
    return ok(await service.createRedemptions(ctx, req.user!.id, parse(CreateRedemptionBody, req.body)));
  });
  app.put('/redemption/', { preHandler: admin }, async (req) => {
    const statusOnly = Boolean(parse(StatusOnly, req.query).status_only);
    return ok(await service.updateRedemptionById(ctx, parse(UpdateRedemptionBody, req.body), statusOnly));
  });
  app.delete('/redemption/:id', { preHandler: admin }, async (req) => {
    await service.removeRedemption(ctx, parse(IdParam, req.params).id);
    return ok();
  });
}
