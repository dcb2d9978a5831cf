import type { z } from 'zod';
import { ROLE, TOKEN_STATUS, TokenSettingSchema, type Token, type TokenBody, type UpdateTokenBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import { findUserGroupBySymbol } from '../../db/repos/user-groups.js';
import { LEASE_KIND, leasedAmount, setTokenRemain } from '../../db/repos/quota-leases.js';
import { findUserById, type UserRow } from '../../db/repos/users.js';
import {
  findTokenById,
  findTokenByName,
  generateTokenKey,
  insertToken,
  readTokenSetting as readSetting,
  softDeleteToken,
  updateToken,
  type TokenRow,
} from '../../db/repos/tokens.js';
import { transact } from '../../db/retry.js';

export const PLAYGROUND_TOKEN = 'sys_playground';

/** Token as the API shows it; the billing tag only to reliable staff and above. */
export function toTokenJson(row: TokenRow & { owner_name?: string | null }, viewerRole: number): Token {
  const setting = readSetting(row.setting);
  if (viewerRole < ROLE.reliable) delete setting.billing_tag;
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    created_time: row.created_time,
    accessed_time: row.accessed_time,
    expired_time: row.expired_time,
    remain_quota: row.remain_quota,
    unlimited_quota: row.unlimited_quota === 1,
    used_quota: row.used_quota,
    group: row.group,
    backup_group: row.backup_group,
    setting,
    mcp_tools: row.mcp_tools ?? '',
    ...(row.owner_name !== undefined ? { owner_name: row.owner_name ?? '' } : {}),
  };
}

/** A token may name an enabled group that is public or the owner's own. */
async function checkGroup(ctx: AppContext, owner: UserRow, symbol: string): Promise<void> {
  if (!symbol) return;
  const group = await findUserGroupBySymbol(ctx.db, symbol);
  if (!group || group.enable === 0) throw apiError(400, 'group_invalid', undefined, { fields: [{ path: 'group', code: 'invalid_value', message: '无效的用户组' }] });
  if (group.public !== 1 && group.symbol !== owner.group) throw apiError(403, 'group_not_allowed', undefined, { fields: [{ path: 'group', code: 'invalid_value', message: '当前用户组无权使用指定的分组' }] });
}

/** A user sees only their own tokens; anyone else's id answers 404, as if it did not exist. */
export async function loadOwnToken(ctx: AppContext, user: UserRow, id: number): Promise<TokenRow> {
  const row = await findTokenById(ctx.db, id);
  if (!row || row.user_id !== user.id) throw apiError(404, 'token_not_found');
  return row;
}

const changed = (ctx: AppContext, row: TokenRow) => ctx.store.publish(EVENTS.tokens, String(row.id));

/** Creates the token and answers its key, which the console shows once in a dialog. */
export async function createToken(ctx: AppContext, owner: UserRow, body: z.infer<typeof TokenBody>, callerRole: number): Promise<string> {
  await checkGroup(ctx, owner, body.group);
  await checkGroup(ctx, owner, body.backup_group);
  const setting = { ...body.setting };
  if (callerRole < ROLE.reliable) delete setting.billing_tag;
  const now = nowSeconds();
  const key = generateTokenKey();
  await insertToken(ctx.db, {
    user_id: owner.id,
    key,
    name: body.name,
    status: TOKEN_STATUS.enabled,
    created_time: now,
    accessed_time: now,
    expired_time: body.expired_time,
    remain_quota: body.remain_quota,
    unlimited_quota: body.unlimited_quota ? 1 : 0,
    group: body.group,
    backup_group: body.backup_group,
    setting: JSON.stringify(setting),
    mcp_tools: body.mcp_tools,
  });
  return key;
}

export async function updateTokenFields(
  ctx: AppContext,
  row: TokenRow,
  owner: UserRow,
  body: z.infer<typeof UpdateTokenBody>,
  statusOnly: boolean,
  callerRole: number,
): Promise<void> {
  if (body.status === TOKEN_STATUS.enabled) {
    const expired = body.expired_time ?? row.expired_time;
    if (!statusOnly ? expired !== -1 && expired <= nowSeconds() : row.expired_time !== -1 && row.expired_time <= nowSeconds()) {
      throw apiError(400, 'token_expired_enable');
    }
    const unlimited = statusOnly ? row.unlimited_quota === 1 : (body.unlimited_quota ?? row.unlimited_quota === 1);
    const remain = statusOnly ? row.remain_quota : (body.remain_quota ?? row.remain_quota);
    if (!unlimited && remain <= 0) {
      throw apiError(400, 'token_exhausted_enable');
    }
  }
  if (statusOnly) {
    if (body.status === undefined) throw apiError(400, 'invalid_parameter', { field: 'status', detail: 'required' }, { fields: [{ path: 'status', code: 'required', message: 'required' }] });
    await updateToken(ctx.db, row.id, { status: body.status });
    return changed(ctx, row);
  }
  if (body.group !== undefined && body.group !== row.group) await checkGroup(ctx, owner, body.group);
  if (body.backup_group !== undefined && body.backup_group !== row.backup_group) await checkGroup(ctx, owner, body.backup_group);
  let setting = body.setting ? { ...body.setting } : readSetting(row.setting);
  if (callerRole < ROLE.reliable) setting = { ...setting, billing_tag: readSetting(row.setting).billing_tag };
  const patch = {
    name: body.name ?? row.name,
    expired_time: body.expired_time ?? row.expired_time,
    unlimited_quota: body.unlimited_quota === undefined ? row.unlimited_quota : body.unlimited_quota ? 1 : 0,
    group: body.group ?? row.group,
    backup_group: body.backup_group ?? row.backup_group,
    setting: JSON.stringify(setting),
    mcp_tools: body.mcp_tools ?? row.mcp_tools,
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  // A new remaining quota replaces the old one whole: leases taken from the old value end with it.
  // The value shown counts leased slices, so sending it back unchanged changes nothing.
  const shown = body.remain_quota === undefined ? 0 : row.remain_quota + (await leasedAmount(ctx.db, LEASE_KIND.token, row.id));
  const remain = body.remain_quota !== undefined && body.remain_quota !== shown ? body.remain_quota : undefined;
  await transact(ctx.db, async (trx) => {
    await updateToken(trx, row.id, patch);
    if (remain !== undefined) await setTokenRemain(trx, row.id, remain);
  });
  if (remain !== undefined) await ctx.store.publish(EVENTS.leases, `${LEASE_KIND.token}:${row.id}`);
  await changed(ctx, row);
}

export async function deleteOwnToken(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  const row = await loadOwnToken(ctx, user, id);
  await softDeleteToken(ctx.db, row.id, nowSeconds());
  await changed(ctx, row);
}

/** The key of the user's playground token, created (unlimited, never expiring) on first use. */
export async function playgroundKey(ctx: AppContext, user: UserRow): Promise<string> {
  const existing = await findTokenByName(ctx.db, user.id, PLAYGROUND_TOKEN);
  if (existing) return existing.key;
  await createToken(
    ctx,
    user,
    { name: PLAYGROUND_TOKEN, expired_time: -1, remain_quota: 0, unlimited_quota: true, group: '', backup_group: '', setting: TokenSettingSchema.parse(undefined), mcp_tools: '' },
    user.role,
  );
  const created = await findTokenByName(ctx.db, user.id, PLAYGROUND_TOKEN);
  if (!created) throw apiError(500, 'playground_token_failed', { name: PLAYGROUND_TOKEN });
  return created.key;
}

export async function adminUpdateToken(ctx: AppContext, admin: UserRow, body: z.infer<typeof UpdateTokenBody>, statusOnly: boolean): Promise<Token> {
  const row = await findTokenById(ctx.db, body.id);
  if (!row) throw apiError(404, 'token_not_found');
  let owner = await findUserById(ctx.db, row.user_id);
  if (body.user_id && body.user_id > 0 && body.user_id !== row.user_id) {
    owner = await findUserById(ctx.db, body.user_id);
    if (!owner) throw apiError(400, 'token_owner_missing');
    await updateToken(ctx.db, row.id, { user_id: owner.id });
  }
  if (!owner) throw apiError(404, 'token_owner_not_found');
  await updateTokenFields(ctx, row, owner, body, statusOnly, admin.role);
  return toTokenJson((await findTokenById(ctx.db, row.id))!, admin.role);
}
