import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { HubError, apiError } from '../../common/errors.js';
import { USER_STATUS } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { writeLoginSession, writeSession } from '../../http/session.js';
import { findUserById, updateUser, type UserRow } from '../../db/repos/users.js';
import { toLoginJson } from '../user/user-json.js';
import { checkUserCode, twoFactorEnabled } from './two-factor/service.js';

/** A password or provider sign-in waits this long for the second factor. */
const PENDING_SECONDS = 300;
export const TWO_FACTOR_MESSAGE = '2fa';

/**
 * Ends a first-factor sign-in: starts the session, or, for a user with two-factor, remembers only
 * who is signing in and answers `message: "2fa"` (no data) until POST /api/user/login/2fa.
 */
export async function finishSignIn(ctx: AppContext, reply: FastifyReply, user: UserRow) {
  if (await twoFactorEnabled(ctx, user.id)) {
    writeSession(reply, { tfa_user: user.id, tfa_at: Math.floor(Date.now() / 1000) });
    return ok(undefined, TWO_FACTOR_MESSAGE);
  }
  writeLoginSession(reply, user);
  return ok(toLoginJson(user));
}

/** POST /api/user/login/2fa: the code (or a recovery code) for the pending sign-in. */
export async function secondFactor(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, code: string) {
  const { tfa_user: userId, tfa_at: at } = req.session;
  if (typeof userId !== 'number' || typeof at !== 'number' || Date.now() / 1000 - at > PENDING_SECONDS) {
    throw apiError(400, 'login_expired');
  }
  const user = await findUserById(ctx.db, userId);
  if (!user || user.status !== USER_STATUS.enabled) throw apiError(403, 'user_banned');
  // The account's one wrong-code counter: a new password round brings no fresh guesses.
  if (!(await checkUserCode(ctx, userId, code))) throw apiError(400, 'two_factor_code_wrong');
  const now = Math.floor(Date.now() / 1000);
  await updateUser(ctx.db, user.id, { last_login_time: now, last_login_ip: req.ip });
  writeLoginSession(reply, user);
  return ok(toLoginJson(user));
}
