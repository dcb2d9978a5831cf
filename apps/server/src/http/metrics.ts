import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isWorker, nodeMetrics } from '../cluster.js';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';

interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'path' | 'code'>;
  duration: Histogram<'method' | 'path' | 'code'>;
  providers: Counter<'channel_type' | 'channel_id' | 'model' | 'type'>;
  panics: Counter<'type'>;
}

const byContext = new WeakMap<AppContext, Metrics>();

/** This server's Prometheus series (one registry per server, so test servers never share counts). */
export function metricsOf(ctx: AppContext): Metrics {
  let m = byContext.get(ctx);
  if (m) return m;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labels = ['method', 'path', 'code'] as const;
  m = {
    registry,
    requests: new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames: labels, registers: [registry] }),
    duration: new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP request duration', labelNames: labels, registers: [registry] }),
    providers: new Counter({ name: 'provider_requests_total', help: 'Upstream provider attempts', labelNames: ['channel_type', 'channel_id', 'model', 'type'], registers: [registry] }),
    panics: new Counter({ name: 'app_panics_total', help: 'Unexpected server errors', labelNames: ['type'], registers: [registry] }),
  };
  // Read at scrape time; a node of several workers is degraded when any of them is.
  new Gauge({ name: 'shared_store_degraded', help: '1 while this node cannot reach its shared store (Redis), else 0', registers: [registry], aggregator: 'max', collect() {
    this.set(ctx.store.degraded ? 1 : 0);
  } });
  byContext.set(ctx, m);
  return m;
}

/** Metrics are recorded only when they can be read: without credentials `/api/metrics` is always a 404. */
export const metricsEnabled = (ctx: AppContext) => Boolean(ctx.config.METRICS_USER && ctx.config.METRICS_PASSWORD);
const enabled = metricsEnabled;

/** One upstream attempt on a channel: `type` is success or error. */
export function countProviderRequest(ctx: AppContext, channel: { id: number; type: number }, model: string, type: 'success' | 'error'): void {
  if (!enabled(ctx)) return;
  metricsOf(ctx).providers.inc({ channel_type: String(channel.type), channel_id: String(channel.id), model, type });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function authorized(ctx: AppContext, req: FastifyRequest): boolean {
  const { METRICS_USER: user, METRICS_PASSWORD: password } = ctx.config;
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && sameText(decoded.slice(0, colon), user) && sameText(decoded.slice(colon + 1), password);
}

/**
 * Request counters for every route (measured when the response finishes, so streamed
 * and hijacked answers count too), unexpected-error counts, and `GET /api/metrics`
 * behind HTTP Basic auth: without configured credentials or with wrong ones it is an empty 404.
 * A server without credentials records nothing (no per-request hooks at all).
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  if (!enabled(ctx)) {
    app.get('/api/metrics', async (_req, reply) => reply.status(404).send(''));
    return;
  }
  const m = metricsOf(ctx);
  app.addHook('onRequest', (req, reply, done) => {
    const started = process.hrtime.bigint();
    reply.raw.once('finish', () => {
      const labels = { method: req.method, path: req.routeOptions.url ?? 'unmatched', code: String(reply.raw.statusCode) };
      m.requests.inc(labels);
      m.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    done();
  });
  app.addHook('onError', async (req, _reply, error) => {
    if (error instanceof HubError || ((error as { statusCode?: number }).statusCode ?? 500) < 500) return;
    m.panics.inc({ type: req.url.startsWith('/api/') ? 'api' : 'relay' });
  });
  // A worker of several (WORKERS) answers for the whole node: the primary gathers every worker's series.
  if (isWorker()) {
    AggregatorRegistry.setRegistries([m.registry]);
    new AggregatorRegistry(); // its constructor is what makes this worker answer the primary's requests
  }
  app.get('/api/metrics', async (req, reply) => {
    if (!authorized(ctx, req)) return reply.status(404).send('');
    const text = isWorker() ? await nodeMetrics() : await m.registry.metrics();
    return reply.header('content-type', m.registry.contentType).send(text);
  });
}
