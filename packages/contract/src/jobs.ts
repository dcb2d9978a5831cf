import { z } from 'zod';

/** The master node's scheduled jobs (api.md §7.1 step 8, relay.md §7.2). */
export const JOB_NAMES = ['channel_test', 'balance_refresh', 'price_sync', 'log_retention', 'monthly_bills', 'mcp_refresh'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** One job as root sees it on the system info screen. */
export interface JobStatus {
  name: JobName;
  /** Configured to run on this node (its setting is non-zero and this is the master). */
  configured: boolean;
  /** Not switched off by root (option DisabledJobs). */
  enabled: boolean;
  /** When it runs, in words a reader understands: `every 30 min`, `daily 04:00`. */
  schedule: string;
  running: boolean;
  /** Epoch seconds of the last start, 0 when it never ran since start-up. */
  last_run_at: number;
  last_duration_ms: number;
  last_outcome: 'ok' | 'error' | null;
  /** What the last run did or why it failed. */
  last_message: string;
  /** Epoch seconds of the next scheduled run, 0 when none. */
  next_run_at: number;
}

export interface JobsInfo {
  node_type: 'master' | 'slave';
  jobs: JobStatus[];
}

export const JobSwitchBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });
export const JobNameParam = z.object({ name: z.enum(JOB_NAMES, { error: `job must be one of ${JOB_NAMES.join(', ')}` }) });
