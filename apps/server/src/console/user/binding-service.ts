import type { UnbindType } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { isEgressRefused, REFUSED_MESSAGE } from '../../egress/guard.js';
import { outboundFetch } from '../../egress/outbound.js';
import { apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { findUserByEmail, findUserByWechatId, updateUser, type UserPatch, type UserRow } from '../../db/repos/users.js';
import { userHasPasskey } from '../../db/repos/webauthn-credentials.js';
import { checkCode, consumeCode } from './codes.js';

const CLEARED: Record<UnbindType, UserPatch> = {
  github: { github_id: '', github_id_new: 0 },
  wechat: { wechat_id: '' },
  lark: { lark_id: '' },
  oidc: { oidc_id: '' },
  linuxdo: { linuxdo_id: '' },
};

/** The ways this user can still sign in: a password, an e-mail (password reset), each bound provider, passkeys. */
export async function signInMethods(ctx: AppContext, user: UserRow): Promise<string[]> {
  const methods: string[] = [];
  if (user.password) methods.push('password');
  if (user.email) methods.push('email');
  if (user.github_id || user.github_id_new) methods.push('github');
  for (const kind of ['wechat', 'lark', 'oidc', 'linuxdo'] as const) if (user[`${kind}_id`]) methods.push(kind);
  if (await userHasPasskey(ctx.db, user.id)) methods.push('passkey');
  return methods;
}

/** Forgets one external sign-in of the user, unless it is the last way they can sign in (unlike the original). */
export async function unbind(ctx: AppContext, user: UserRow, type: UnbindType): Promise<void> {
  const methods = await signInMethods(ctx, user);
  if (!methods.includes(type)) throw apiError(400, 'binding_missing');
  if (methods.length === 1) throw apiError(400, 'last_sign_in_method');
  await updateUser(ctx.db, user.id, CLEARED[type]);
  await ctx.store.publish(EVENTS.users, String(user.id));
}

/**
 * Replaces the user's e-mail with one proven by a mailed code. Unlike the original, an address
 * another account holds is refused: sign-in by e-mail must find exactly one user.
 */
export async function bindEmail(ctx: AppContext, user: UserRow, email: string, code: string): Promise<void> {
  if (!(await checkCode(ctx.store, 'verify', email, code))) throw apiError(400, 'verification_code_wrong');
  const holder = await findUserByEmail(ctx.db, email);
  if (holder && holder.id !== user.id) throw apiError(409, 'email_taken');
  await updateUser(ctx.db, user.id, { email });
  await consumeCode(ctx.store, 'verify', email);
  await ctx.store.publish(EVENTS.users, String(user.id));
}

/** Asks the WeChat login server whose account the code belongs to, then binds it (api.md §13). */
export async function bindWeChat(ctx: AppContext, user: UserRow, code: string): Promise<void> {
  if (!ctx.options.get('WeChatAuthEnabled')) throw apiError(403, 'wechat_disabled');
  const wechatId = await wechatIdOf(ctx, code);
  const holder = await findUserByWechatId(ctx.db, wechatId);
  if (holder && holder.id !== user.id) throw apiError(409, 'wechat_taken');
  await updateUser(ctx.db, user.id, { wechat_id: wechatId });
  await ctx.store.publish(EVENTS.users, String(user.id));
}

export async function wechatIdOf(ctx: AppContext, code: string): Promise<string> {
  const base = ctx.options.get('WeChatServerAddress').replace(/\/+$/, '');
  if (!base) throw apiError(400, 'wechat_unconfigured');
  let body: { success?: boolean; message?: string; data?: unknown };
  try {
    const res = await outboundFetch(`${base}/api/wechat/user?code=${encodeURIComponent(code)}`, {
      headers: { Authorization: ctx.options.get('WeChatServerToken') },
      signal: AbortSignal.timeout(5000),
    });
    body = (await res.json()) as typeof body;
  } catch (e) {
    // A generic reason only: the answer of an address the admin typed is not reflected.
    throw apiError(502, 'wechat_unreachable', { reason: isEgressRefused(e) ? REFUSED_MESSAGE : 'no valid answer' });
  }
  if (!body.success) throw body.message ? apiError(400, 'wechat_refused', { reason: body.message }) : apiError(400, 'verification_code_wrong');
  if (typeof body.data !== 'string' || !body.data) throw apiError(400, 'verification_code_wrong');
  return body.data;
}
