import type { FastifyInstance } from 'fastify';
import { ROLE, StepUpBody } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { requireRole } from '../../../http/auth.js';
import { ok } from '../../../http/envelope.js';
import { parse } from '../../../http/validate.js';
import * as stepUp from './service.js';

/** Step-up confirmation before secrets are revealed (issue 17 point 9). */
export function registerStepUpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  app.get('/user/step_up', { preHandler: user }, async (req) => ok(await stepUp.factorsOf(ctx, req.user!.id)));
  app.post('/user/step_up/passkey', { preHandler: user }, async (req, reply) => ok(await stepUp.passkeyOptions(ctx, req, reply)));
  app.post('/user/step_up', { preHandler: user }, async (req, reply) => {
    const body = parse(StepUpBody, req.body);
    if (body.code) return ok(await stepUp.confirmByCode(ctx, req, reply, body.code));
    return ok(await stepUp.confirmByPasskey(ctx, req, reply, body.passkey));
  });
}
