import { hasLimits, NO_LIMITS, readLimits, readModelLimits, ROLE, type ModelLimits, type RequestLimits } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound, apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { findUserById, updateUser, type UserRow } from '../../db/repos/users.js';
import { findUserGroupById, updateUserGroup } from '../../db/repos/user-groups.js';

async function target(ctx: AppContext, me: UserRow, id: number): Promise<UserRow> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw apiError(404, 'user_not_found');
  if (me.role !== ROLE.root && me.role <= user.role) throw apiError(403, 'user_rank_forbidden');
  return user;
}

export async function userLimits(ctx: AppContext, me: UserRow, id: number): Promise<RequestLimits> {
  return readLimits((await target(ctx, me, id)).limits) ?? NO_LIMITS;
}

/** Saves a user's limits (all zero clears them); every node's caller cache drops the user. */
export async function setUserLimits(ctx: AppContext, me: UserRow, id: number, limits: RequestLimits): Promise<void> {
  await target(ctx, me, id);
  await updateUser(ctx.db, id, { limits: hasLimits(limits) ? JSON.stringify(limits) : null });
  await ctx.store.publish(EVENTS.users, String(id));
}

async function group(ctx: AppContext, id: number) {
  const row = await findUserGroupById(ctx.db, id);
  if (!row) throw apiError(404, 'group_not_found');
  return row;
}

export async function groupModelLimits(ctx: AppContext, id: number): Promise<ModelLimits> {
  return readModelLimits((await group(ctx, id)).model_limits) ?? {};
}

/** Replaces a group's per-model limits (models with no limit set are dropped). */
export async function setGroupModelLimits(ctx: AppContext, id: number, limits: ModelLimits): Promise<void> {
  await group(ctx, id);
  const kept = Object.entries(limits).filter(([, l]) => hasLimits(l));
  await updateUserGroup(ctx.db, id, { model_limits: kept.length ? JSON.stringify(Object.fromEntries(kept)) : null });
  await ctx.store.publish(EVENTS.userGroups, '');
}
