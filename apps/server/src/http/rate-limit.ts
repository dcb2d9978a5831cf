import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../app-context.js';

/**
 * Fixed-window per-IP limiter on the shared store (Redis when configured, so the
 * limit holds across nodes). A rejection is an empty 429 as in the original.
 * A limit of 0 turns the limiter off.
 */
export function ipLimiter(ctx: AppContext, name: string, limit: number, windowSeconds: number): preHandlerAsyncHookHandler {
  return async function limitByIp(req: FastifyRequest, reply: FastifyReply) {
    if (limit <= 0) return;
    const count = await ctx.store.incrWindow(`rl:${name}:${req.ip}`, windowSeconds);
    if (count > limit) {
      reply.header('Retry-After', String(windowSeconds));
      return reply.status(429).send('');
    }
  };
}

/** Login, registration, password reset, verification and OAuth: one counter shared by all of them. */
export const criticalLimiter = (ctx: AppContext) => ipLimiter(ctx, 'critical', ctx.config.CRITICAL_RATE_LIMIT, 1200);

/** Paths the global API limiter leaves alone (api.md §10.6): scrapers and inbound webhooks. */
export function exemptFromGlobalLimit(method: string, path: string): boolean {
  if (path === '/api/metrics' || path.startsWith('/api/metrics?')) return true;
  if (method !== 'POST') return false;
  return path === '/api/system_info/log' || path.startsWith('/api/telegram/');
}

/** The global per-IP limiter of every /api route: GLOBAL_API_RATE_LIMIT requests per 180 s. */
export function globalApiLimiter(ctx: AppContext): preHandlerAsyncHookHandler {
  const limit = ipLimiter(ctx, 'api', ctx.config.GLOBAL_API_RATE_LIMIT, 180);
  return async function globalLimit(req, reply) {
    if (exemptFromGlobalLimit(req.method, req.url)) return;
    return limit.call(this, req, reply);
  };
}
