import type { FastifyInstance } from 'fastify';
import { OptionUpdate, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { listOptions, updateOption } from './option-service.js';
import { registerSystemLogRoutes } from './system-log.js';
import { latestRelease } from './release-feed.js';

export function registerOptionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = requireRole(ctx, ROLE.root);
  registerSystemLogRoutes(app, ctx);
  app.get('/option/', { preHandler: root }, async () => ok(listOptions(ctx)));
  app.get('/option/release/latest', { preHandler: root }, async () => ok(await latestRelease(ctx)));
  app.put('/option/', { preHandler: root }, async (req) => {
    const body = parse(OptionUpdate, req.body);
    await updateOption(ctx, body.key, body.value);
    return ok();
  });
  app.get('/option/safe_tools', { preHandler: root }, async () => ok(['Keyword']));
}
