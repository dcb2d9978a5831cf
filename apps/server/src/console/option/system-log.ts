import type { FastifyInstance } from 'fastify';
import { ROLE, SystemLogRequest } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';

/** Root's server log viewer (api.md §28); the first path is exempt from the global limiter. */
export function registerSystemLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = { preHandler: requireRole(ctx, ROLE.root) };
  const recent = async (req: { body: unknown }) => ok(ctx.recentLogs.last(parse(SystemLogRequest, req.body ?? {}).count));
  app.post('/system_info/log', root, recent);
  app.post('/option/system_info/log', root, recent);
}
