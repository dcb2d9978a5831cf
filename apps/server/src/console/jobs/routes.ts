import type { FastifyInstance } from 'fastify';
import { JobNameParam, JobSwitchBody, ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import * as service from './service.js';
import { answerForNode } from '../../cluster.js';

/** Scheduled jobs on the system info screen (root): status, run now, switch on/off. */
export function registerJobRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = { preHandler: requireRole(ctx, ROLE.root) };
  // Worker 0 of a node of several answers the others (elsewhere these do nothing).
  answerForNode(service.JOBS_TOPIC, () => service.localJobsInfo(ctx));
  answerForNode(service.RUN_JOB_TOPIC, (name) => service.runJobHere(ctx, parse(JobNameParam, { name }).name));
  app.get('/system_info/jobs', root, async () => ok(await service.jobsInfo(ctx)));
  app.post('/system_info/jobs/:name/run', root, async (req) => {
    await service.runJobNow(ctx, parse(JobNameParam, req.params).name);
    return ok();
  });
  app.put('/system_info/jobs/:name', root, async (req) => {
    await service.switchJob(ctx, parse(JobNameParam, req.params).name, parse(JobSwitchBody, req.body).enabled);
    return ok();
  });
}
