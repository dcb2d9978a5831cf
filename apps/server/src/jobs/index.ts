import type { AppContext } from '../app-context.js';
import { JobRunner } from './runner.js';
import { channelTestJob } from './channel-test.js';
import { balanceRefreshJob } from './balance-refresh.js';
import { priceSyncJob } from './price-sync.js';
import { logRetentionJob } from './log-retention.js';
import { monthlyBillsJob } from './monthly-bills.js';
import { mcpRefreshJob } from './mcp-refresh.js';
import { resumeLogDeletions } from '../console/log/deletion.js';

const runners = new WeakMap<AppContext, JobRunner>();

/** Builds the job list; only the master node starts the timers (slaves list the jobs as not configured). */
export async function startJobs(ctx: AppContext): Promise<JobRunner> {
  const runner = new JobRunner(ctx);
  for (const job of [channelTestJob(ctx), balanceRefreshJob(ctx), priceSyncJob(ctx), logRetentionJob(), monthlyBillsJob(ctx), mcpRefreshJob(ctx)]) runner.add(job);
  runners.set(ctx, runner);
  // The last runs survive restarts (and show on slaves too): read before the timers start.
  await runner.loadHistory();
  if (ctx.config.NODE_TYPE === 'master') {
    runner.start();
    // Log deletions a restart interrupted go on where their last batch committed (in the background).
    void resumeLogDeletions(ctx);
  }
  return runner;
}

export function jobRunner(ctx: AppContext): JobRunner {
  const runner = runners.get(ctx);
  if (!runner) throw new Error('jobs not initialised');
  return runner;
}

export { onJobNotice, type JobNotice } from './notices.js';
