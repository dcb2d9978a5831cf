import type { z } from 'zod';
import { ROLE, USER_STATUS, type RegisterBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { randomAlnum, randomHex, uuidHex } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import {
  addUserQuota,
  findUserByAffCode,
  findUserByEmail,
  findUserByUsername,
  insertUser,
  liveUserIdsByEmail,
  updateUser,
  usernameTaken,
  type UserRow,
} from '../../db/repos/users.js';
import { checkPassword, hashPassword } from './passwords.js';
import { accountKey, checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-guard.js';
import { checkCode, consumeCode, issueCode } from './codes.js';
import { sendMail } from './mail.js';
import { MAIL_TEXTS, type MailLanguage } from './mail-texts.js';
import { writeUserLog } from './user-log.js';
import { grantDefaultPlan } from '../plan/service.js';

export async function login(ctx: AppContext, username: string, password: string, ip: string): Promise<UserRow> {
  if (!ctx.options.get('PasswordLoginEnabled')) throw apiError(403, 'password_login_disabled');
  const user = (await findUserByUsername(ctx.db, username)) ?? (await findUserByEmail(ctx.db, username));
  const account = accountKey(user?.id, username);
  await checkLoginAllowed(ctx.store, account, ip);
  // Runs the hash comparison even for an unknown user (against a dummy hash): same timing.
  const ok = await checkPassword(password, user?.password);
  if (!user || !ok || user.status !== USER_STATUS.enabled) {
    await recordLoginFailure(ctx.store, account, ip);
    throw apiError(401, 'login_failed');
  }
  await recordLoginSuccess(ctx.store, account, ip);
  const now = nowSeconds();
  await updateUser(ctx.db, user.id, { last_login_time: now, last_login_ip: ip });
  return { ...user, last_login_time: now, last_login_ip: ip };
}

/** A fresh invite code no other user holds. */
export async function newAffCode(ctx: AppContext): Promise<string> {
  for (let i = 0; i < 8; i++) {
    const code = randomAlnum(4);
    if (!(await findUserByAffCode(ctx.db, code))) return code;
  }
  return randomAlnum(8);
}

export interface NewAccount {
  username: string;
  password: string;
  displayName?: string;
  email?: string;
  inviterId?: number;
}

/** Inserts a common user with the new-user quota and its system log; shared by register and admin create. */
export async function createAccount(ctx: AppContext, account: NewAccount): Promise<UserRow> {
  if (await usernameTaken(ctx.db, account.username)) throw apiError(409, 'username_taken', undefined, { fields: [{ path: 'username', code: 'invalid_value', message: '用户名已存在！' }] });
  const quota = Math.max(0, ctx.options.get('QuotaForNewUser'));
  const now = nowSeconds();
  await insertUser(ctx.db, {
    username: account.username,
    // '' = no password (an account made by a sign-in provider): password login never matches it.
    password: account.password ? await hashPassword(account.password) : '',
    display_name: account.displayName || account.username,
    email: account.email ?? '',
    role: ROLE.common,
    status: USER_STATUS.enabled,
    access_token: uuidHex(),
    aff_code: await newAffCode(ctx),
    quota,
    group: 'default',
    inviter_id: account.inviterId ?? 0,
    created_time: now,
  });
  const user = await findUserByUsername(ctx.db, account.username);
  if (!user) throw apiError(500, 'user_create_failed');
  if (quota > 0) {
    await writeUserLog(ctx, { userId: user.id, kind: 'system', message: 'register_bonus', args: { quota }, quota });
  }
  await grantDefaultPlan(ctx, user.id);
  return user;
}

export async function register(ctx: AppContext, body: z.infer<typeof RegisterBody>): Promise<void> {
  if (!ctx.options.get('RegisterEnabled')) throw apiError(403, 'register_disabled');
  if (!ctx.options.get('PasswordRegisterEnabled')) {
    throw apiError(403, 'password_register_disabled');
  }
  let email = '';
  if (ctx.options.get('EmailVerificationEnabled')) {
    if (!body.email || !body.verification_code) throw apiError(400, 'email_verification_required');
    if (!(await checkCode(ctx.store, 'verify', body.email, body.verification_code))) throw apiError(400, 'verification_code_wrong');
    email = body.email;
  }
  const inviter = body.aff_code ? await findUserByAffCode(ctx.db, body.aff_code) : undefined;
  const user = await createAccount(ctx, {
    username: body.username,
    password: body.password,
    email,
    inviterId: inviter?.id,
  });
  if (email) await consumeCode(ctx.store, 'verify', email);
  if (inviter) await grantInviteeBonus(ctx, user.id);
}

/** QuotaForInvitee for a user who signed up with an invite code (the inviter is paid at the first top-up). */
export async function grantInviteeBonus(ctx: AppContext, userId: number): Promise<void> {
  const inviteeBonus = ctx.options.get('QuotaForInvitee');
  if (inviteeBonus > 0) {
    await addUserQuota(ctx.db, userId, inviteeBonus);
    await writeUserLog(ctx, {
      userId,
      kind: 'system',
      message: 'invitee_bonus',
      args: { quota: inviteeBonus },
      quota: inviteeBonus,
    });
  }
}

function checkEmailDomain(ctx: AppContext, email: string): void {
  if (!ctx.options.get('EmailDomainRestrictionEnabled')) return;
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  const allowed = ctx.options
    .get('EmailDomainWhitelist')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (!allowed.includes(domain)) throw apiError(400, 'email_domain_not_allowed');
}

/** Lower-cased address without a "+tag" in the local part, so aliases cannot sign up twice. */
export function normaliseEmail(email: string): string {
  const [local, domain] = email.trim().toLowerCase().split('@');
  return `${local.split('+')[0]}@${domain}`;
}

export async function sendVerificationCode(ctx: AppContext, email: string, lang: MailLanguage = 'zh_CN'): Promise<void> {
  checkEmailDomain(ctx, email);
  if (await findUserByEmail(ctx.db, email)) throw apiError(409, 'email_taken');
  if (normaliseEmail(email) !== email.toLowerCase() && (await findUserByEmail(ctx.db, normaliseEmail(email)))) {
    throw apiError(409, 'email_taken');
  }
  const code = await issueCode(ctx.store, 'verify', email);
  const name = ctx.options.get('SystemName');
  await sendMail(ctx, email, MAIL_TEXTS[lang].verifySubject(name), MAIL_TEXTS[lang].verifyBody(code));
}

export async function sendPasswordResetMail(ctx: AppContext, email: string, lang: MailLanguage = 'zh_CN'): Promise<void> {
  if (!(await findUserByEmail(ctx.db, email))) throw apiError(404, 'email_not_registered');
  const token = await issueCode(ctx.store, 'reset', email);
  const link = `${ctx.options.get('ServerAddress')}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
  const name = ctx.options.get('SystemName');
  await sendMail(ctx, email, MAIL_TEXTS[lang].resetSubject(name), MAIL_TEXTS[lang].resetBody(link));
}

/** Sets a new random password on the account(s) with this e-mail; answers it once. */
export async function resetPassword(ctx: AppContext, email: string, token: string): Promise<string> {
  if (!(await checkCode(ctx.store, 'reset', email, token))) throw apiError(400, 'reset_link_invalid');
  await consumeCode(ctx.store, 'reset', email);
  const password = randomHex(6);
  const hash = await hashPassword(password);
  for (const id of await liveUserIdsByEmail(ctx.db, email)) await updateUser(ctx.db, id, { password: hash }, true);
  return password;
}
