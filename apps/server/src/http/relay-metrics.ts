import { Counter, Gauge, Histogram } from 'prom-client';
import type { AppContext } from '../app-context.js';
import { metricsEnabled, metricsOf } from './metrics.js';

interface RelaySeries {
  ttft: Histogram<'channel_id' | 'model'>;
  tokensPerSecond: Histogram<'channel_id' | 'model'>;
  upstreamErrors: Counter<'channel_id' | 'class' | 'status'>;
}

const byContext = new WeakMap<AppContext, RelaySeries>();

function series(ctx: AppContext): RelaySeries {
  let s = byContext.get(ctx);
  if (s) return s;
  const registers = [metricsOf(ctx).registry];
  s = {
    ttft: new Histogram({
      name: 'relay_time_to_first_token_seconds',
      help: 'Seconds from the request to the first streamed byte from upstream',
      labelNames: ['channel_id', 'model'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
      registers,
    }),
    tokensPerSecond: new Histogram({
      name: 'relay_output_tokens_per_second',
      help: 'Completion tokens per second of generation (after the first token for streams)',
      labelNames: ['channel_id', 'model'],
      buckets: [1, 5, 10, 20, 40, 80, 160, 320],
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'relay_upstream_errors_total',
      help: 'Failed upstream attempts by class: retryable (429/5xx/network), channel (key, balance), caller (4xx of the request)',
      labelNames: ['channel_id', 'class', 'status'],
      registers,
    }),
  };
  byContext.set(ctx, s);
  return s;
}

/** A settled answer: time to first token (streams) and generation speed. */
export function observeAnswer(ctx: AppContext, channelId: number, model: string, o: { startedAt: number; firstResponseMs?: number; completionTokens: number }): void {
  if (!metricsEnabled(ctx)) return;
  const s = series(ctx);
  const labels = { channel_id: String(channelId), model };
  if (o.firstResponseMs !== undefined) s.ttft.observe(labels, o.firstResponseMs / 1000);
  const generating = (Date.now() - o.startedAt - (o.firstResponseMs ?? 0)) / 1000;
  if (o.completionTokens > 0 && generating > 0) s.tokensPerSecond.observe(labels, o.completionTokens / generating);
}

export type ErrorClass = 'retryable' | 'channel' | 'caller';

export function countUpstreamError(ctx: AppContext, channelId: number, cls: ErrorClass, status: number): void {
  if (!metricsEnabled(ctx)) return;
  series(ctx).upstreamErrors.inc({ channel_id: String(channelId), class: cls, status: String(status) });
}

export interface RelayGaugeSources {
  /** Relay requests holding quota on this node now. */
  holds(): number;
  /** Seconds the oldest unwritten log row has waited. */
  logLagSeconds(): number;
  /** Asynchronous tasks not finished yet, by kind (read at scrape time). */
  pendingTasks(): Promise<Record<string, number>>;
}

/** Gauges read when Prometheus scrapes; nothing is counted per request. */
export function registerRelayGauges(ctx: AppContext, src: RelayGaugeSources): void {
  if (!metricsEnabled(ctx)) return;
  const registers = [metricsOf(ctx).registry];
  new Gauge({ name: 'relay_holds_in_flight', help: 'Relay requests holding quota on this node', registers, collect() {
    this.set(src.holds());
  } });
  // Worker processes (WORKERS) are summed when scraped, except what is the oldest or read from the database.
  new Gauge({ name: 'relay_log_batch_lag_seconds', help: 'Age of the oldest log row not yet written', registers, aggregator: 'max', collect() {
    this.set(src.logLagSeconds());
  } });
  new Gauge({ name: 'relay_async_tasks_pending', help: 'Asynchronous tasks (Midjourney, Suno, Kling, video) not finished', labelNames: ['kind'], registers, aggregator: 'max', async collect() {
    for (const [kind, n] of Object.entries(await src.pendingTasks())) this.set({ kind }, n);
  } });
}
