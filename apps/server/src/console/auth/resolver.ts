import { OAUTH_PROVIDER_LABELS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { USER_STATUS } from '../../http/auth.js';
import {
  findUserByAffCode,
  findUserByEmail,
  findUserByIdentity,
  maxUserId,
  updateUser,
  usernameTaken,
  type UserPatch,
  type UserRow,
} from '../../db/repos/users.js';
import { createAccount, grantInviteeBonus } from '../user/auth-service.js';
import type { OAuthProfile } from './oauth/types.js';

export type IdentityKind = 'github' | 'lark' | 'linuxdo' | 'oidc' | 'wechat';

const ALREADY_BOUND: Record<IdentityKind, string> = {
  github: '该 GitHub 账户已被绑定',
  lark: '该飞书账户已被绑定',
  linuxdo: '该 LINUX DO 账户已被绑定',
  oidc: '该 OIDC 账户已被绑定',
  wechat: '该微信账号已被绑定',
};

/** Providers whose login name becomes the local username when it is free (the others get `<kind>_<n>`). */
const KEEPS_LOGIN: ReadonlySet<IdentityKind> = new Set(['github', 'linuxdo', 'oidc']);
const USERNAME_CHARS = /^[\w.-]{1,39}$/;

export interface ResolveInput {
  kind: IdentityKind;
  profile: OAuthProfile;
  /** The signed-in user: the identity is bound to them instead of signing in. */
  current?: UserRow;
  /** The inviter's invite code, for a first sign-in. */
  aff?: string;
  ip: string;
}

export type Resolution = { kind: 'login'; user: UserRow } | { kind: 'bind'; user: UserRow };

function identityPatch(kind: IdentityKind, p: OAuthProfile): UserPatch {
  if (kind === 'github') return { github_id: p.login, github_id_new: p.numericId ?? 0 };
  return { [`${kind}_id`]: p.id } as UserPatch;
}

function boundId(kind: IdentityKind, user: UserRow): string {
  return kind === 'github' ? (user.github_id_new ? String(user.github_id_new) : user.github_id) : user[`${kind}_id`];
}

async function findHolder(ctx: AppContext, kind: IdentityKind, p: OAuthProfile): Promise<UserRow | undefined> {
  if (kind !== 'github') return p.id ? findUserByIdentity(ctx.db, `${kind}_id`, p.id) : undefined;
  const byNumber = p.numericId ? await findUserByIdentity(ctx.db, 'github_id_new', p.numericId) : undefined;
  if (byNumber || ctx.options.get('GitHubOldIdCloseEnabled') || !p.login) return byNumber;
  return findUserByIdentity(ctx.db, 'github_id', p.login);
}

/** A proven address no other account holds, else '' (never store an unproven or taken e-mail). */
async function usableEmail(ctx: AppContext, p: OAuthProfile, self?: UserRow): Promise<string> {
  if (!p.verified || !p.email) return '';
  const holder = await findUserByEmail(ctx.db, p.email);
  return !holder || holder.id === self?.id ? p.email : '';
}

async function fillBlanks(ctx: AppContext, user: UserRow, p: OAuthProfile): Promise<UserPatch> {
  const patch: UserPatch = {};
  if (!user.avatar_url && p.avatar) patch.avatar_url = p.avatar;
  if (!user.email) {
    const email = await usableEmail(ctx, p, user);
    if (email) patch.email = email;
  }
  return patch;
}

async function newUsername(ctx: AppContext, kind: IdentityKind, p: OAuthProfile): Promise<string> {
  if (KEEPS_LOGIN.has(kind) && USERNAME_CHARS.test(p.login) && !(await usernameTaken(ctx.db, p.login))) return p.login;
  for (let n = (await maxUserId(ctx.db)) + 1; ; n++) {
    if (!(await usernameTaken(ctx.db, `${kind}_${n}`))) return `${kind}_${n}`;
  }
}

async function register(ctx: AppContext, input: ResolveInput): Promise<UserRow> {
  if (!ctx.options.get('RegisterEnabled')) throw apiError(403, 'register_disabled');
  const { kind, profile } = input;
  const inviter = input.aff ? await findUserByAffCode(ctx.db, input.aff) : undefined;
  const user = await createAccount(ctx, {
    username: await newUsername(ctx, kind, profile),
    password: '',
    displayName: profile.name.slice(0, 20) || undefined,
    email: await usableEmail(ctx, profile),
    inviterId: inviter?.id,
  });
  await updateUser(ctx.db, user.id, { ...identityPatch(kind, profile), avatar_url: profile.avatar });
  if (inviter) await grantInviteeBonus(ctx, user.id);
  return user;
}

/**
 * The one place that decides which local account a provider's profile becomes (api.md §13, with
 * the takeover defects fixed): the account bound to that provider id; else, only for an address the
 * provider proved, the account holding it; else a new account. Never by name, never by an empty e-mail.
 */
export async function resolveAccount(ctx: AppContext, input: ResolveInput): Promise<Resolution> {
  const { kind, profile, current } = input;
  const holder = await findHolder(ctx, kind, profile);
  if (current) {
    if (holder && holder.id !== current.id) throw apiError(409, 'oauth_already_bound', { provider: OAUTH_PROVIDER_LABELS[kind] }, { message: ALREADY_BOUND[kind] });
    await updateUser(ctx.db, current.id, { ...identityPatch(kind, profile), ...(await fillBlanks(ctx, current, profile)) });
    await ctx.store.publish(EVENTS.users, String(current.id));
    return { kind: 'bind', user: current };
  }
  let user = holder;
  if (!user && profile.verified && profile.email) {
    const owner = await findUserByEmail(ctx.db, profile.email);
    // An account already bound to another account of this provider is not re-pointed.
    if (owner && !boundId(kind, owner)) user = owner;
  }
  if (!user) user = await register(ctx, input);
  if (user.status !== USER_STATUS.enabled) throw apiError(403, 'user_banned');
  const now = Math.floor(Date.now() / 1000);
  const patch = { ...identityPatch(kind, profile), ...(await fillBlanks(ctx, user, profile)), last_login_time: now, last_login_ip: input.ip };
  await updateUser(ctx.db, user.id, patch);
  return { kind: 'login', user: { ...user, ...patch } as UserRow };
}
