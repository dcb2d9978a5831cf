import type { FastifyInstance } from 'fastify';
import { SetupBody, SetupTokenQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { criticalLimiter } from '../../http/rate-limit.js';
import * as setup from './service.js';

/** The first run's `/setup` page: both routes need the one-time token printed in the log (no session). */
export function registerSetupRoutes(app: FastifyInstance, ctx: AppContext): void {
  const critical = criticalLimiter(ctx);
  app.get('/setup', { preHandler: [critical] }, async (req) => ok(await setup.checkSetup(ctx, parse(SetupTokenQuery, req.query).token)));
  app.post('/setup', { preHandler: [critical] }, async (req) => ok(await setup.runSetup(ctx, parse(SetupBody, req.body))));
}
