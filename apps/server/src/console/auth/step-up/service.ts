import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { STEP_UP_REQUIRED, STEP_UP_SECONDS, type StepUpFactors } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { HubError, apiError } from '../../../common/errors.js';
import { writeSession } from '../../../http/session.js';
import { userHasPasskey } from '../../../db/repos/webauthn-credentials.js';
import type { UserRow } from '../../../db/repos/users.js';
import { checkUserCode, twoFactorEnabled } from '../two-factor/service.js';
import * as passkeys from '../passkeys/service.js';

export async function factorsOf(ctx: AppContext, userId: number): Promise<StepUpFactors> {
  const [twoFactor, passkey] = await Promise.all([twoFactorEnabled(ctx, userId), userHasPasskey(ctx.db, userId)]);
  return { two_factor: twoFactor, passkey };
}

/** True when this session confirmed its user within STEP_UP_SECONDS (an access token never has). */
export function freshConfirmation(req: FastifyRequest, user: UserRow): boolean {
  const at = req.session.step_up_at;
  return req.authVia === 'session' && req.session.id === user.id && typeof at === 'number' && Date.now() / 1000 - at <= STEP_UP_SECONDS;
}

/** Whether the signed-in user may see secrets now: no second factor at all, or a fresh confirmation. */
export async function stepUpSatisfied(ctx: AppContext, req: FastifyRequest): Promise<boolean> {
  const user = req.user!;
  if (freshConfirmation(req, user)) return true;
  const f = await factorsOf(ctx, user.id);
  return !f.two_factor && !f.passkey;
}

/** 403 `step_up_required` (with the usable factors) unless the user has no factor or confirmed just now. */
export async function assertStepUp(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const user = req.user!;
  if (freshConfirmation(req, user)) return;
  const factors = await factorsOf(ctx, user.id);
  if (!factors.two_factor && !factors.passkey) return;
  throw new HubError(403, '请先用两步验证码或通行密钥确认身份', { code: STEP_UP_REQUIRED, data: factors });
}

/** Guard after a role guard: the user confirms before the route runs. */
export function requireStepUp(ctx: AppContext): preHandlerAsyncHookHandler {
  return async function stepUp(req: FastifyRequest) {
    await assertStepUp(ctx, req);
  };
}

const FACTOR_CHANGE_NEEDS_SESSION = '请在控制台登录后修改两步验证或通行密钥 (factor changes need a console session)';

/**
 * Guard for enrolling or removing a factor: a console session only (never an access token), and a
 * fresh confirmation with an existing factor when the user has one. A user with no factor enrols
 * the first with the session alone: there is nothing else to confirm with.
 */
export function requireFactorChange(ctx: AppContext): preHandlerAsyncHookHandler {
  return async function factorChange(req: FastifyRequest) {
    if (req.authVia !== 'session') throw new HubError(403, FACTOR_CHANGE_NEEDS_SESSION, { code: 'session_required' });
    await assertStepUp(ctx, req);
  };
}

function confirmed(req: FastifyRequest, reply: FastifyReply): { expires_at: number } {
  const at = Math.floor(Date.now() / 1000);
  writeSession(reply, { ...req.session, step_up_at: at });
  return { expires_at: at + STEP_UP_SECONDS };
}

function requireSession(req: FastifyRequest, user: UserRow): void {
  if (req.authVia !== 'session' || req.session.id !== user.id) throw apiError(400, 'step_up_console_only');
}

/** POST /api/user/step_up with a code: a current authenticator code (not used before) or an unused recovery code. */
export async function confirmByCode(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, code: string) {
  const user = req.user!;
  requireSession(req, user);
  if (!(await twoFactorEnabled(ctx, user.id))) throw apiError(400, 'two_factor_not_enabled');
  if (!(await checkUserCode(ctx, user.id, code))) throw apiError(400, 'two_factor_code_wrong');
  return confirmed(req, reply);
}

/** POST /api/user/step_up/passkey: assertion options for the user's own passkeys, kept in the session. */
export async function passkeyOptions(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  requireSession(req, req.user!);
  const { options, ceremony } = await passkeys.stepUpBegin(ctx, req.user!);
  writeSession(reply, { ...req.session, webauthn_step_up: ceremony });
  return options;
}

/** POST /api/user/step_up with a passkey assertion for the session's step-up ceremony. */
export async function confirmByPasskey(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, assertion: unknown) {
  const user = req.user!;
  requireSession(req, user);
  const { webauthn_step_up: ceremony, ...rest } = req.session;
  writeSession(reply, rest);
  await passkeys.stepUpFinish(ctx, ceremony as passkeys.Ceremony | undefined, assertion, user);
  return confirmed(req, reply);
}
