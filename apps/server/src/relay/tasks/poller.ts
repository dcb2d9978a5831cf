import type { AppContext } from '../../app-context.js';
import { roundCalls, type RoundCall } from './upstream.js';

/** What one polling round did, for the console and the closing figures. */
/** The failure reason of a task the upstream never finished within TASK_TIMEOUT_SECONDS. */
export function timedOutReason(seconds: number): string {
  return `上游任务超时（超过 ${seconds} 秒）`;
}

export interface RoundResult {
  /** Tasks still pending after the round (0 puts the poller to sleep). */
  pending: number;
  /** Tasks looked at this round. */
  tasks: number;
  /** Upstream requests made this round. */
  upstreamCalls: number;
}

/**
 * One background loop per task family (relay.md §6): asleep while nothing is pending,
 * woken by a new task, a round every interval while work remains. A failed round is
 * logged and retried at the next interval. Runs on the master node only; a restart
 * resumes with a round at start-up, since pending tasks live in the database.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  rounds = 0;
  last: RoundResult = { pending: 0, tasks: 0, upstreamCalls: 0 };

  constructor(
    private readonly ctx: AppContext,
    readonly name: string,
    private readonly round: () => Promise<RoundResult>,
  ) {}

  private get enabled(): boolean {
    return !this.closed && this.ctx.config.NODE_TYPE === 'master';
  }

  /** Start-up: one round now, for tasks left pending by the previous process. */
  start(): void {
    if (this.enabled) this.schedule(0);
  }

  /** A task was inserted: poll it at the next interval unless a round is already due. */
  wake(): void {
    if (this.enabled && !this.timer && !this.running) this.schedule(this.ctx.config.TASK_POLL_INTERVAL_MS);
  }

  /** Runs a round now and waits for it (tests, admin). */
  async runNow(): Promise<RoundResult> {
    await this.running;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.run();
    return this.last;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, ms);
    this.timer.unref();
  }

  private run(): Promise<void> {
    this.running = (async () => {
      let pending = 1;
      // A round that looked at tasks is a span of its own trace (tracing on only; an idle round is not exported).
      const startedAt = this.ctx.tracer && Date.now();
      const calls: RoundCall[] = [];
      try {
        this.last = startedAt ? await roundCalls.run(calls, this.round) : await this.round();
        this.rounds++;
        pending = this.last.pending;
        if (startedAt && this.last.tasks) this.traceRound(startedAt, calls);
      } catch (error) {
        this.ctx.log.warn({ err: error, poller: this.name }, 'task polling round failed');
        if (startedAt) this.traceRound(startedAt, calls, error);
      } finally {
        this.running = undefined;
      }
      if (pending > 0 && this.enabled && !this.timer) this.schedule(this.ctx.config.TASK_POLL_INTERVAL_MS);
    })();
    return this.running;
  }

  /** The round's span, with a CLIENT child for each upstream call it made. */
  private traceRound(startedAt: number, calls: RoundCall[], error?: unknown): void {
    // A failed round has no figures of its own (`last` is the round before).
    const r: Partial<RoundResult> = error === undefined ? this.last : {};
    const span = this.ctx.tracer!.span({
      name: `task_poll ${this.name}`,
      kind: 'internal',
      startedAt,
      attributes: { 'gen_ai.operation.name': 'task_poll', 'one-hub.poller': this.name, 'one-hub.poll.tasks': r.tasks, 'one-hub.poll.upstream_calls': r.upstreamCalls, 'one-hub.poll.pending': r.pending },
    });
    for (const call of calls) {
      const child = span.child({ name: String(call.attributes['http.request.method']), kind: 'client', startedAt: call.startedAt, attributes: call.attributes });
      if (call.error !== undefined) child.fail(call.error);
      child.end(call.endedAt || undefined);
    }
    if (error !== undefined) span.fail(error);
    span.end();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
