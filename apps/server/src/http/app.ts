import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from '../app-context.js';
import { HubError, apiError } from '../common/errors.js';
import { registerSession } from './session.js';
import { consoleErrorHandler, consoleFailure, openAIErrorBody, toHubError } from './errors.js';
import { registerConsoleRoutes } from '../console/index.js';
import { registerRelayRoutes } from '../relay/index.js';
import { registerRelayExtras } from '../relay/extra-routes.js';
import { registerMcpRoutes } from '../mcp/endpoint.js';
import { registerMetrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { registerConsoleJsonParser } from './json-body.js';
import { registerTextGuard } from './text-guard.js';
import { consoleHeaders } from './security-headers.js';
import { registerApiDocs } from './api-docs.js';
import { traceDoors } from '../telemetry/door-spans.js';

const RELAY_PREFIXES = ['/v1', '/claude', '/gemini', '/v1beta', '/mj', '/suno', '/kling', '/recraftAI'];

/** Request ids: this process's start time and a random tag, then a counter (unique across nodes and restarts). */
const idPrefix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let idCounter = 0;
const nextRequestId = () => `${idPrefix}${(++idCounter).toString(36)}`;

export interface BuildAppOptions {
  sessionSecret: string;
  /** Folder of the built console; omitted in tests that need no web. */
  webDist?: string;
  logger?: boolean | object;
}

export async function buildApp(ctx: AppContext, opts: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: 64 * 1024 * 1024,
    trustProxy: ctx.config.TRUST_PROXY,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Oneapi-Request-Id', req.id);
    done(null, payload);
  });

  // First: its hook records every route registered after it.
  registerOpenApi(app, ctx);
  registerMetrics(app, ctx);
  registerTextGuard(app);
  // Console answers only (the SPA and /api); relay answers do not carry them.
  const securityHeaders = consoleHeaders(ctx.options);

  await app.register(
    async (scope) => {
      // Only the console reads the session cookie; the relay authenticates by key and skips its hooks.
      scope.addHook('onRequest', (_req, reply, done) => {
        reply.headers(securityHeaders());
        done();
      });
      await registerSession(scope, opts.sessionSecret, ctx.config.SESSION_SECURE_COOKIE);
      scope.setErrorHandler(consoleErrorHandler);
      registerConsoleJsonParser(scope);
      await registerConsoleRoutes(scope, ctx);
      registerApiDocs(scope, ctx);
    },
    { prefix: '/api' },
  );
  await app.register(async (doors) => {
    // Spans of the doors' refusals, tasks and tool calls (not of the console); no hook at all when tracing is off.
    if (ctx.tracer) traceDoors(doors, ctx.tracer);
    await doors.register(async (scope) => registerRelayRoutes(scope, ctx));
    await doors.register(async (scope) => registerRelayExtras(scope, ctx));
    await doors.register(async (scope) => registerMcpRoutes(scope, ctx));
  });

  const dist = opts.webDist ? resolve(opts.webDist) : undefined;
  const hasWeb = dist !== undefined && existsSync(resolve(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: ['index.html'],
      // @fastify/static 9 hands over the raw response (9 rather than 10: 10's dependencies need Node 22).
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(securityHeaders())) res.setHeader(name, value);
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    if (path.startsWith('/api/')) {
      return reply.status(404).send(consoleFailure(apiError(404, 'api_route_not_found', { method: req.method, path })));
    }
    if (RELAY_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) {
      const err = new HubError(404, `Invalid URL (${req.method} ${path})`, { code: 'invalid_url' });
      return reply.status(404).send(openAIErrorBody(err));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return reply.status(404).send({ success: false, message: 'not found' });
    }
    reply.headers(securityHeaders());
    if (hasWeb) return reply.type('text/html').sendFile('index.html');
    return reply.type('text/html').send(placeholderPage(ctx));
  });

  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    if (hub.status >= 500) req.log.error({ err: error }, 'request failed');
    return reply.status(hub.status).send(openAIErrorBody(hub));
  });

  return app;
}

function placeholderPage(ctx: AppContext): string {
  const name = ctx.options.get('SystemName').replace(/[<>&"]/g, '');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title></head><body><h1>${name}</h1><p>The console has not been built yet. Run <code>npm run build</code>.</p></body></html>`;
}
