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
