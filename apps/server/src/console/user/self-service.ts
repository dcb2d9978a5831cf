import type { z } from 'zod';
import type { UpdateSelfBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { uuidHex } from '../../common/random.js';
import { EVENTS } from '../../cache/events.js';
import {
  addUserQuota,
  claimAffReward,
  findUserById,
  recordInviteReward,
  updateUser,
  type UserRow,
} from '../../db/repos/users.js';
import { claimRedemption, findRedemptionByKey } from '../../db/repos/redemptions.js';
import { nowSeconds } from '../../common/time.js';
import { checkPassword, hashPassword } from './passwords.js';
import { accountKey, checkLoginAllowed, recordLoginFailure } from './login-guard.js';
import { newAffCode } from './auth-service.js';
import { writeUserLog } from './user-log.js';
import { promoteAfterTopup } from '../user-group/promotion.js';
import { findPlanEvenDeleted } from '../../db/repos/plans.js';
import { grantPlan, subscriptionsChanged } from '../plan/grant.js';
import { transact } from '../../db/retry.js';

/** What the request proves besides its credential, for a password change. */
export interface PasswordProof {
  ip: string;
  /** The session confirmed a factor within the step-up window. */
  steppedUp: boolean;
  /** A console session whose user has no factor, or confirmed one just now. */
  sessionConfirmed: boolean;
}

/**
 * A new password needs the current one, or a fresh step-up. A user without a password (a provider
 * sign-up) sets the first one from a console session, confirmed when they have a factor. Wrong
 * current passwords count against the sign-in limit, so this is no side door for guessing.
 */
async function checkPasswordChange(ctx: AppContext, user: UserRow, original: string, proof: PasswordProof): Promise<void> {
  if (original) {
    const account = accountKey(user.id, user.username);
    await checkLoginAllowed(ctx.store, account, proof.ip);
    if (await checkPassword(original, user.password)) return;
    await recordLoginFailure(ctx.store, account, proof.ip);
    throw apiError(400, 'original_password_wrong', undefined, { fields: [{ path: 'original_password', code: 'invalid_value', message: '原密码错误' }] });
  }
  if (proof.steppedUp || (!user.password && proof.sessionConfirmed)) return;
  throw apiError(400, 'original_password_required', undefined, { fields: [{ path: 'original_password', code: 'required', message: '修改密码须填写原密码' }] });
}

/** Answers the updated user when the password changed (every session was ended), else undefined. */
export async function updateSelf(ctx: AppContext, user: UserRow, body: z.infer<typeof UpdateSelfBody>, proof: PasswordProof): Promise<UserRow | undefined> {
  const patch: { display_name?: string; password?: string } = {};
  if (body.display_name) patch.display_name = body.display_name;
  if (body.password) {
    await checkPasswordChange(ctx, user, body.original_password, proof);
    patch.password = await hashPassword(body.password);
  }
  if (Object.keys(patch).length) await updateUser(ctx.db, user.id, patch, Boolean(patch.password));
  return patch.password ? findUserById(ctx.db, user.id) : undefined;
}

/** Logout: every session of the user issued so far is refused from now on. */
export async function endSessions(ctx: AppContext, userId: number): Promise<void> {
  await updateUser(ctx.db, userId, {}, true);
}

export async function regenerateAccessToken(ctx: AppContext, user: UserRow): Promise<string> {
  const token = uuidHex();
  await updateUser(ctx.db, user.id, { access_token: token });
  await ctx.store.publish(EVENTS.users, String(user.id));
  return token;
}

export async function affCode(ctx: AppContext, user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  const code = await newAffCode(ctx);
  await updateUser(ctx.db, user.id, { aff_code: code });
  return code;
}

/** Redeems a code: claimed by one conditional update, credited once, logged; answers the quota added. */
export async function redeem(ctx: AppContext, user: UserRow, key: string, ip: string): Promise<number> {
  if (!key) throw apiError(400, 'redeem_code_missing');
  const code = await findRedemptionByKey(ctx.db, key);
  if (!code) throw apiError(400, 'redeem_code_invalid');
  const plan = code.plan_id ? await findPlanEvenDeleted(ctx.db, code.plan_id) : undefined;
  if (code.plan_id && !plan) throw apiError(400, 'redeem_plan_missing');
  const credited = await transact(ctx.db, async (trx) => {
    if (!(await claimRedemption(trx, code.id, user.id, nowSeconds()))) return false;
    if (plan) await grantPlan(trx, user.id, plan, 'redemption', String(code.id), nowSeconds());
    else await addUserQuota(trx, user.id, code.quota);
    return true;
  });
  if (!credited) throw apiError(400, 'redeem_code_used');
  if (plan) {
    // A plan code: the subscription starts (or is queued after the one the user holds); no quota.
    await subscriptionsChanged(ctx, user.id);
    await writeUserLog(ctx, { userId: user.id, kind: 'topup', message: 'plan_redeem', args: { plan: plan.name }, quota: 0, ip });
    return 0;
  }
  await ctx.store.publish(EVENTS.users, String(user.id));
  await writeUserLog(ctx, { userId: user.id, kind: 'topup', message: 'redeem_topup', args: { quota: code.quota }, quota: code.quota, ip });
  await promoteAfterTopup(ctx, user.id);
  await payInviteReward(ctx, user.id);
  return code.quota;
}

/**
 * The inviter is rewarded on the invitee's first top-up, not at sign-up, so
 * farming invites with empty accounts pays nothing. Paid at most once per invitee.
 */
export async function payInviteReward(ctx: AppContext, inviteeId: number): Promise<void> {
  const reward = ctx.options.get('QuotaForInviter');
  const invitee = await findUserById(ctx.db, inviteeId);
  if (!invitee || invitee.inviter_id <= 0 || reward <= 0) return;
  if (!(await claimAffReward(ctx.db, inviteeId))) return;
  await recordInviteReward(ctx.db, invitee.inviter_id, reward);
  await ctx.store.publish(EVENTS.users, String(invitee.inviter_id));
  await writeUserLog(ctx, {
    userId: invitee.inviter_id,
    kind: 'system',
    message: 'invite_reward',
    args: { username: invitee.username, quota: reward },
    quota: reward,
  });
}
