import type { FastifyInstance } from 'fastify';
import { QuotaAlertBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { getQuotaAlert, setQuotaAlert } from './alert-service.js';

/** The user's own low-balance alert (GET/PUT /api/user/alert). */
export function registerQuotaAlertRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  app.get('/user/alert', { preHandler: user }, async (req) => ok(await getQuotaAlert(ctx, req.user!)));
  app.put('/user/alert', { preHandler: user }, async (req) => {
    await setQuotaAlert(ctx, req.user!, parse(QuotaAlertBody, req.body));
    return ok();
  });
}
