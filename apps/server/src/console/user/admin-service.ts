import type { z } from 'zod';
import { fieldErrorOf, ROLE, USER_STATUS, Username, type ChangeQuotaBody, type CreateUserBody, type ManageUserBody, type UpdateUserBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, apiError } from '../../common/errors.js';
import { randomAlnum } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import {
  addUserQuota,
  findUserById,
  findUserByUsername,
  softDeleteUser,
  updateUser,
  usernameTaken,
  type UserPatch,
  type UserRow,
} from '../../db/repos/users.js';
import { findUserGroupBySymbol } from '../../db/repos/user-groups.js';
import { hashPassword } from './passwords.js';
import { deductWholeBalance, LEASE_KIND } from '../../db/repos/quota-leases.js';
import { createAccount } from './auth-service.js';
import { writeUserLog } from './user-log.js';

const RANK_READ = '无权获取同级或更高等级用户的信息';
const RANK_WRITE = '无权更新同权限等级或更高权限等级的用户信息';

/** Unless the caller is root, they may act only on users of lower rank. */
function checkRank(me: UserRow, target: UserRow, message: string): void {
  if (me.role !== ROLE.root && me.role <= target.role) throw new HubError(403, message, { code: message === RANK_WRITE ? 'user_rank_forbidden' : 'user_rank_read_forbidden' });
}

async function loadTarget(ctx: AppContext, id: number): Promise<UserRow> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw apiError(404, 'user_not_found');
  return user;
}

const changed = (ctx: AppContext, id: number) => ctx.store.publish(EVENTS.users, String(id));

export async function getUser(ctx: AppContext, me: UserRow, id: number): Promise<UserRow> {
  const target = await loadTarget(ctx, id);
  checkRank(me, target, RANK_READ);
  return target;
}

export async function createUser(ctx: AppContext, me: UserRow, body: z.infer<typeof CreateUserBody>): Promise<void> {
  if (body.role >= me.role) throw apiError(403, 'user_create_rank');
  await createAccount(ctx, { username: body.username, password: body.password, displayName: body.display_name });
}

export async function updateUserByAdmin(ctx: AppContext, me: UserRow, body: z.infer<typeof UpdateUserBody>): Promise<void> {
  const target = await loadTarget(ctx, body.id);
  checkRank(me, target, RANK_WRITE);
  if (body.role !== undefined && body.role !== target.role) {
    if (me.role !== ROLE.root && body.role >= me.role) {
      throw apiError(403, 'user_promote_rank');
    }
    if (target.role === ROLE.root) throw apiError(403, 'root_protected');
    if (![ROLE.common, ROLE.reliable, ROLE.admin].includes(body.role as 1 | 3 | 10)) {
      throw apiError(400, 'user_role_unknown', { role: String(body.role) }, { fields: [{ path: 'role', code: 'invalid_value', message: `unknown role ${body.role}` }] });
    }
  }
  const patch: UserPatch = {};
  if (body.username && body.username !== target.username) {
    const valid = Username.safeParse(body.username);
    if (!valid.success) throw apiError(400, 'invalid_parameter', { field: 'username', detail: valid.error.issues[0].message }, { message: `username: ${valid.error.issues[0].message}`, fields: valid.error.issues.map((i) => ({ ...fieldErrorOf(i), path: 'username' })) });
    if (await usernameTaken(ctx.db, body.username)) throw apiError(409, 'username_taken', undefined, { fields: [{ path: 'username', code: 'invalid_value', message: '用户名已存在！' }] });
    patch.username = body.username;
  }
  if (body.password) patch.password = await hashPassword(body.password);
  if (body.display_name) patch.display_name = body.display_name;
  if (body.email !== undefined) patch.email = body.email;
  if (body.group) {
    if (!(await findUserGroupBySymbol(ctx.db, body.group))) throw apiError(400, 'user_group_unknown', { group: body.group }, { fields: [{ path: 'group', code: 'invalid_value', message: `unknown group ${body.group}` }] });
    patch.group = body.group;
  }
  if (body.role !== undefined) patch.role = body.role;
  const endSessions = Boolean(patch.password) || (patch.role !== undefined && patch.role !== target.role);
  if (Object.keys(patch).length) await updateUser(ctx.db, target.id, patch, endSessions);
  await changed(ctx, target.id);
}

async function deleteTarget(ctx: AppContext, target: UserRow): Promise<void> {
  await softDeleteUser(ctx.db, target.id, `${target.username}_del_${randomAlnum(6)}`, nowSeconds());
  await changed(ctx, target.id);
}

export async function deleteUser(ctx: AppContext, me: UserRow, id: number): Promise<void> {
  const target = await loadTarget(ctx, id);
  if (target.role === ROLE.root) throw apiError(403, 'root_undeletable');
  if (me.role <= target.role) throw apiError(403, 'user_delete_rank');
  await deleteTarget(ctx, target);
}

/** POST /api/user/manage; answers the target's new role and status. */
export async function manageUser(
  ctx: AppContext,
  me: UserRow,
  body: z.infer<typeof ManageUserBody>,
): Promise<{ role: number; status: number }> {
  const target = await findUserByUsername(ctx.db, body.username);
  if (!target) throw apiError(404, 'user_not_found');
  checkRank(me, target, RANK_WRITE);
  const isRoot = target.role === ROLE.root;
  let patch: UserPatch;
  switch (body.action) {
    case 'disable':
      if (isRoot) throw apiError(403, 'root_undisablable');
      patch = { status: USER_STATUS.disabled };
      break;
    case 'enable':
      patch = { status: USER_STATUS.enabled };
      break;
    case 'delete':
      if (isRoot) throw apiError(403, 'root_undeletable');
      await deleteTarget(ctx, target);
      return { role: target.role, status: target.status };
    case 'promote':
      if (me.role !== ROLE.root) throw apiError(403, 'root_only_promote');
      if (isRoot) throw apiError(403, 'root_protected');
      patch = { role: ROLE.admin };
      break;
    case 'demote':
      if (isRoot) throw apiError(403, 'root_protected');
      patch = { role: ROLE.common };
      break;
    case 'set_reliable':
      if (isRoot) throw apiError(403, 'root_protected');
      patch = { role: ROLE.reliable };
      break;
  }
  // A ban or a role change ends the target's sessions; enabling again does not revive them.
  await updateUser(ctx.db, target.id, patch, body.action !== 'enable');
  await changed(ctx, target.id);
  return { role: patch.role ?? target.role, status: patch.status ?? target.status };
}

/** Signed delta; admins may not push a user of equal or higher rank, nor a balance below zero. */
export async function changeQuota(
  ctx: AppContext,
  me: UserRow,
  id: number,
  body: z.infer<typeof ChangeQuotaBody>,
  ip: string,
): Promise<void> {
  const target = await loadTarget(ctx, id);
  checkRank(me, target, RANK_WRITE);
  if (body.quota < 0) {
    // What nodes hold in leases counts as balance: they are ended, so every node sees the deduction at once.
    const short = await deductWholeBalance(ctx.db, LEASE_KIND.user, id, -body.quota);
    if (short !== undefined) throw apiError(400, 'quota_short', { balance: short, amount: -body.quota });
    await ctx.store.publish(EVENTS.leases, `${LEASE_KIND.user}:${id}`);
  } else await addUserQuota(ctx.db, id, body.quota);
  await changed(ctx, id);
  const message = body.remark ? 'admin_quota_remark' : 'admin_quota';
  await writeUserLog(ctx, { userId: id, kind: 'manage', message, args: { quota: body.quota, remark: body.remark ?? '' }, quota: body.quota, ip });
}
