import type { z } from 'zod';
import { SEEDED_GROUP_NAMES, type UpdateUserGroupBody, type UserGroup, type UserGroupBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound, apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import {
  deleteUserGroup,
  findUserGroupById,
  findUserGroupBySymbol,
  insertUserGroup,
  listAllUserGroups,
  updateUserGroup,
  type UserGroupRow,
} from '../../db/repos/user-groups.js';

export const DEFAULT_GROUP = 'default';

export function toUserGroupJson(row: UserGroupRow): UserGroup {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    ratio: Number(row.ratio),
    api_rate: row.api_rate,
    public: row.public === 1,
    promotion: row.promotion === 1,
    min: row.min,
    max: row.max,
    enable: row.enable !== 0,
  };
}

const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.userGroups, '');

async function load(ctx: AppContext, id: number): Promise<UserGroupRow> {
  const row = await findUserGroupById(ctx.db, id);
  if (!row) throw apiError(404, 'group_not_found');
  return row;
}

export const getUserGroup = async (ctx: AppContext, id: number) => toUserGroupJson(await load(ctx, id));

export async function createUserGroup(ctx: AppContext, body: z.infer<typeof UserGroupBody>): Promise<void> {
  if (await findUserGroupBySymbol(ctx.db, body.symbol)) throw apiError(409, 'group_exists', { name: body.symbol }, { fields: [{ path: 'symbol', code: 'invalid_value', message: `分组标识 ${body.symbol} 已存在` }] });
  await insertUserGroup(ctx.db, {
    symbol: body.symbol,
    name: body.name,
    ratio: body.ratio ?? 1,
    api_rate: body.api_rate ?? 600,
    public: body.public ? 1 : 0,
    promotion: body.promotion ? 1 : 0,
    min: body.min,
    max: body.max,
    enable: body.enable ? 1 : 0,
  });
  await changed(ctx);
}

export async function updateUserGroupById(ctx: AppContext, body: z.infer<typeof UpdateUserGroupBody>): Promise<void> {
  await load(ctx, body.id);
  await updateUserGroup(ctx.db, body.id, {
    name: body.name,
    ratio: body.ratio,
    api_rate: body.api_rate,
    public: body.public ? 1 : 0,
    promotion: body.promotion ? 1 : 0,
    min: body.min,
    max: body.max,
  });
  await changed(ctx);
}

export async function toggleUserGroup(ctx: AppContext, id: number): Promise<void> {
  const row = await load(ctx, id);
  const enabling = row.enable === 0;
  if (!enabling && row.symbol === DEFAULT_GROUP) {
    throw apiError(400, 'default_group_required');
  }
  await updateUserGroup(ctx.db, id, { enable: enabling ? 1 : 0 });
  await changed(ctx);
}

export async function removeUserGroup(ctx: AppContext, id: number): Promise<void> {
  const row = await load(ctx, id);
  if (row.symbol === DEFAULT_GROUP) throw apiError(400, 'default_group_undeletable');
  await deleteUserGroup(ctx.db, id);
  await changed(ctx);
}

export async function enabledSymbols(ctx: AppContext): Promise<string[]> {
  return (await listAllUserGroups(ctx.db)).filter((g) => g.enable !== 0).map((g) => g.symbol);
}

/** Enabled groups that are public or the caller's own, keyed by symbol. */
export async function userGroupMap(ctx: AppContext, ownGroup?: string): Promise<Record<string, UserGroup>> {
  const map: Record<string, UserGroup> = {};
  for (const row of await listAllUserGroups(ctx.db)) {
    if (row.enable === 0) continue;
    if (row.public === 1 || row.symbol === ownGroup) map[row.symbol] = toUserGroupJson(row);
  }
  return map;
}

/** First-start groups (api.md §7.3); existing symbols are kept as they are. */
export async function seedUserGroups(ctx: AppContext): Promise<void> {
  const seeds = [
    { symbol: DEFAULT_GROUP, name: SEEDED_GROUP_NAMES.default, public: 1 },
    { symbol: 'vip', name: SEEDED_GROUP_NAMES.vip, public: 0 },
    { symbol: 'svip', name: SEEDED_GROUP_NAMES.svip, public: 0 },
  ];
  for (const seed of seeds) {
    if (await findUserGroupBySymbol(ctx.db, seed.symbol)) continue;
    try {
      await insertUserGroup(ctx.db, { ...seed, ratio: 1, api_rate: 600, enable: 1 });
    } catch (error) {
      // Another node seeded it at the same moment.
      if (!(await findUserGroupBySymbol(ctx.db, seed.symbol))) throw error;
    }
  }
}
