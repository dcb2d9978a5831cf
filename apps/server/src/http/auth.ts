import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HubError, apiError } from '../common/errors.js';
import type { AppContext } from '../app-context.js';
import { findUserByAccessToken, findUserById, type UserRow } from '../db/repos/users.js';
import { sessionCurrent } from './session.js';
import { findTwoFactor } from '../db/repos/two-factor.js';
import { markRole } from './openapi.js';

export const ROLE = { guest: 0, common: 1, admin: 10, root: 100 } as const;
export const USER_STATUS = { enabled: 1, disabled: 2 } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the role guards. */
    user?: UserRow;
    /** How the role guard identified `user`: a current session cookie or an access token. */
    authVia?: 'session' | 'token';
  }
}

/**
 * Role guard for console routes. Unlike the original, role and status come from
 * the current user row even for cookie sessions, so demotion or a ban applies at once.
 */
export function requireRole(ctx: AppContext, minRole: number): preHandlerAsyncHookHandler {
  return markRole(minRole, async function guard(req: FastifyRequest, _reply: FastifyReply) {
    const { user, via } = await identify(ctx, req);
    if (user.status !== USER_STATUS.enabled) throw new HubError(403, '用户已被封禁', { code: 'user_banned' });
    if (user.role < minRole) throw apiError(403, 'permission_denied');
    if (minRole >= ROLE.admin && ctx.options.get('TwoFactorRequiredForAdmins') && (await findTwoFactor(ctx.db, user.id))?.enabled !== 1) {
      throw new HubError(403, '管理员须先在个人设置中开启两步验证', { code: 'two_factor_required' });
    }
    req.user = user;
    req.authVia = via;
  });
}

/** The signed-in session user, if the session is still current (no access-token fallback). */
export async function sessionUser(ctx: AppContext, req: FastifyRequest): Promise<UserRow | undefined> {
  if (!req.session.id) return undefined;
  const user = await findUserById(ctx.db, req.session.id);
  return user && sessionCurrent(req.session, user.session_version) ? user : undefined;
}

/**
 * The session user, else the access token's. The token is rotated whenever the session version
 * moves (logout, password change, ban, role change), so it ends together with the cookies.
 */
async function identify(ctx: AppContext, req: FastifyRequest): Promise<{ user: UserRow; via: 'session' | 'token' }> {
  const fromSession = await sessionUser(ctx, req);
  if (fromSession) return { user: fromSession, via: 'session' };
  const header = req.headers.authorization;
  if (!header) throw apiError(401, 'not_signed_in');
  const token = header.replace(/^Bearer\s+/i, '').trim();
  const user = /^[0-9a-f]{32}$/.test(token) ? await findUserByAccessToken(ctx.db, token) : undefined;
  if (!user) throw apiError(401, 'invalid_access_token');
  return { user, via: 'token' };
}

/** Reads the session user without rejecting (for public routes that adapt to a signed-in caller). */
export async function optionalUser(ctx: AppContext, req: FastifyRequest): Promise<UserRow | undefined> {
  const user = await sessionUser(ctx, req);
  return user?.status === USER_STATUS.enabled ? user : undefined;
}
