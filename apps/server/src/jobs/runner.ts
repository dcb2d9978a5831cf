import { Cron } from 'croner';
import type { JobName, JobStatus } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { listJobRuns, saveJobRun } from '../db/repos/job-runs.js';

/** When a job runs: every N seconds, or at a cron pattern (`0 4 * * *`). */
export type Schedule = { everySeconds: number } | { cron: string; label: string };

export interface JobDef {
  name: JobName;
  /** Absent when the job's setting turns it off on this install. */
  schedule?: Schedule;
  /** Also run once right after start-up (monthly bills catch up on a missed month). */
  atStart?: boolean;
  /** Does the work; the answer is the outcome's message. `now` is the clock the job reads. */
  run(ctx: AppContext, now: Date): Promise<string>;
}

interface State {
  def: JobDef;
  cron?: Cron;
  running: boolean;
  lastRunAt: number;
  lastDurationMs: number;
  lastOutcome: 'ok' | 'error' | null;
  lastMessage: string;
}

function describe(schedule: Schedule): string {
  if ('cron' in schedule) return schedule.label;
  const s = schedule.everySeconds;
  return s % 3600 === 0 ? `every ${s / 3600} h` : s % 60 === 0 ? `every ${s / 60} min` : `every ${s} s`;
}

/**
 * The master node's periodic work (one croner timer per job). A job never overlaps itself;
 * root can switch each one off (option DisabledJobs) and read its last run and outcome.
 */
export class JobRunner {
  private readonly jobs = new Map<JobName, State>();
  private started = false;

  constructor(private readonly ctx: AppContext) {}

  add(def: JobDef): void {
    this.jobs.set(def.name, { def, running: false, lastRunAt: 0, lastDurationMs: 0, lastOutcome: null, lastMessage: '' });
  }

  enabled(name: JobName): boolean {
    return !this.ctx.options.get('DisabledJobs').split(',').map((s) => s.trim()).includes(name);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) {
      const { schedule } = job.def;
      if (!schedule) continue;
      const tick = () => void this.runScheduled(job.def.name);
      job.cron =
        'cron' in schedule
          ? new Cron(schedule.cron, { unref: true }, tick)
          : new Cron('* * * * * *', { unref: true, interval: schedule.everySeconds, startAt: new Date(Date.now() + schedule.everySeconds * 1000) }, tick);
      if (job.def.atStart) tick();
    }
    this.ctx.onClose.push(() => this.stop());
  }

  /** Takes each job's last run from the database (runs before this start-up, on any master). */
  async loadHistory(): Promise<void> {
    for (const row of await listJobRuns(this.ctx.db)) {
      const job = this.jobs.get(row.name as JobName);
      if (!job || job.running || job.lastRunAt > row.last_run_at) continue;
      job.lastRunAt = row.last_run_at;
      job.lastDurationMs = row.last_duration_ms;
      job.lastOutcome = row.last_outcome;
      job.lastMessage = row.last_message;
    }
  }

  stop(): void {
    for (const job of this.jobs.values()) job.cron?.stop();
  }

  private async runScheduled(name: JobName): Promise<void> {
    if (this.enabled(name)) await this.run(name);
  }

  isRunning(name: JobName): boolean {
    return this.jobs.get(name)?.running ?? false;
  }

  /**
   * Runs a job now (unless it is already running) and records the outcome.
   * Answers false when a run was already going on.
   */
  async run(name: JobName, now = new Date()): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`unknown job ${name}`);
    if (job.running) return false;
    job.running = true;
    const started = Date.now();
    job.lastRunAt = Math.floor(now.getTime() / 1000);
    try {
      job.lastMessage = await job.def.run(this.ctx, now);
      job.lastOutcome = 'ok';
    } catch (error) {
      job.lastOutcome = 'error';
      job.lastMessage = (error as Error).message || String(error);
      this.ctx.log.warn({ err: error, job: name }, 'scheduled job failed');
    } finally {
      job.lastDurationMs = Date.now() - started;
      job.running = false;
    }
    const run = { name, last_run_at: job.lastRunAt, last_duration_ms: job.lastDurationMs, last_outcome: job.lastOutcome, last_message: job.lastMessage };
    await saveJobRun(this.ctx.db, run).catch((error) => this.ctx.log.warn({ err: error, job: name }, 'could not record the job run'));
    return true;
  }

  status(): JobStatus[] {
    return [...this.jobs.values()].map((j) => {
      const next = j.cron?.nextRun();
      return {
        name: j.def.name,
        configured: this.started && Boolean(j.def.schedule),
        enabled: this.enabled(j.def.name),
        schedule: j.def.schedule ? describe(j.def.schedule) : 'off',
        running: j.running,
        last_run_at: j.lastRunAt,
        last_duration_ms: j.lastDurationMs,
        last_outcome: j.lastOutcome,
        last_message: j.lastMessage.slice(0, 1000),
        next_run_at: next ? Math.floor(next.getTime() / 1000) : 0,
      };
    });
  }
}
