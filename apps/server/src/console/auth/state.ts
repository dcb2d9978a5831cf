import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { randomAlnum } from '../../common/random.js';
import { writeSession } from '../../http/session.js';

/** An OAuth state lives 10 minutes and works once (the original kept it for the whole session). */
export const STATE_TTL_SECONDS = 600;

/** A fresh state, remembered in the session with its issue time. */
export function issueState(req: FastifyRequest, reply: FastifyReply): string {
  const state = randomAlnum(12);
  writeSession(reply, { ...req.session, oauth_state: state, oauth_state_at: Math.floor(Date.now() / 1000) });
  return state;
}

/**
 * Checks the callback's state against the session and uses it up: removed from the session, and
 * claimed in the shared store so a copy of the old cookie cannot replay it on any node.
 */
export async function takeState(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, state: string | undefined): Promise<void> {
  const { oauth_state: expected, oauth_state_at: issuedAt, ...rest } = req.session;
  if (expected !== undefined) writeSession(reply, rest);
  const fresh = typeof issuedAt === 'number' && Date.now() / 1000 - issuedAt <= STATE_TTL_SECONDS;
  if (!state || typeof expected !== 'string' || state !== expected || !fresh) {
    throw new HubError(403, 'state is empty or not same', { code: 'oauth_state' });
  }
  if ((await ctx.store.incrBy(`oauth_state_used:${state}`, 1, STATE_TTL_SECONDS)) !== 1) {
    throw new HubError(403, 'state is empty or not same', { code: 'oauth_state' });
  }
}
