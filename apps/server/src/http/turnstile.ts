import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError, apiError } from '../common/errors.js';
import { writeSession } from './session.js';
import { failureText, outboundFetch } from '../egress/outbound.js';

/** Cloudflare Turnstile check when TurnstileCheckEnabled; a session that passed once is trusted until logout. */
export function turnstileCheck(ctx: AppContext): preHandlerAsyncHookHandler {
  return async function turnstile(req: FastifyRequest, reply: FastifyReply) {
    if (!ctx.options.get('TurnstileCheckEnabled') || req.session.turnstile) return;
    const token = (req.query as Record<string, string | undefined>).turnstile;
    if (!token) throw apiError(400, 'turnstile_empty');
    let success = false;
    try {
      const res = await outboundFetch(ctx.config.TURNSTILE_VERIFY_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: ctx.options.get('TurnstileSecretKey'), response: token, remoteip: req.ip }),
        signal: AbortSignal.timeout(10_000),
      });
      success = Boolean(((await res.json()) as { success?: boolean }).success);
    } catch (error) {
      // The caller is anonymous: the verifier's address and answer go to the log only.
      ctx.log.warn(`Turnstile verification unavailable: ${failureText(error)}`);
      throw apiError(502, 'turnstile_unavailable');
    }
    if (!success) throw apiError(400, 'turnstile_failed');
    writeSession(reply, { ...req.session, turnstile: true });
  };
}
