import type { FastifyInstance } from 'fastify';
import { JobNameParam, JobSwitchBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';

/** Scheduled jobs on the system info screen (root): status, run now, switch on/off. */
export function registerJobRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = { preHandler: requireRole(ctx, ROLE.root) };
  app.get('/system_info/jobs', root, async () => ok(service.jobsInfo(ctx)));
  app.post('/system_info/jobs/:name/run', root, async (req) => {
    service.runJobNow(ctx, parse(JobNameParam, req.params).name);
    return ok();
  });
  app.put('/system_info/jobs/:name', root, async (req) => {
    await service.switchJob(ctx, parse(JobNameParam, req.params).name, parse(JobSwitchBody, req.body).enabled);
    return ok();
  });
}
