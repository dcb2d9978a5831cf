import type { JobName, JobsInfo } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { jobRunner } from '../../jobs/index.js';
import { apiError } from '../../common/errors.js';
import { askNode, asksFirstWorker } from '../../cluster.js';

/** Topics worker 0 answers for the other workers of its node (WORKERS): the jobs run there. */
export const JOBS_TOPIC = 'jobs';
export const RUN_JOB_TOPIC = 'run-job';

/** The node's jobs: in a node of several workers, those of worker 0 whichever worker is asked. */
export async function jobsInfo(ctx: AppContext): Promise<JobsInfo> {
  return asksFirstWorker() ? askNode<JobsInfo>(JOBS_TOPIC) : localJobsInfo(ctx);
}

export function localJobsInfo(ctx: AppContext): JobsInfo {
  return { node_type: ctx.config.NODE_TYPE, jobs: jobRunner(ctx).status() };
}

/** Starts a run in the background (the screen polls for its outcome); 409 while one is going on. */
export async function runJobNow(ctx: AppContext, name: JobName): Promise<void> {
  if (asksFirstWorker()) return askNode<void>(RUN_JOB_TOPIC, name);
  runJobHere(ctx, name);
}

export function runJobHere(ctx: AppContext, name: JobName): void {
  const runner = jobRunner(ctx);
  if (runner.isRunning(name)) throw apiError(409, 'job_running');
  void runner.run(name);
}

/** Switches a job on or off for every node (option DisabledJobs). */
export async function switchJob(ctx: AppContext, name: JobName, enabled: boolean): Promise<void> {
  const off = new Set(ctx.options.get('DisabledJobs').split(',').map((s) => s.trim()).filter(Boolean));
  if (enabled) off.delete(name);
  else off.add(name);
  await ctx.options.save({ DisabledJobs: [...off].sort().join(',') });
}
