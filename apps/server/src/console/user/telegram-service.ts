import { USER_STATUS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { findUserByAccessToken, findUserByTelegramId, swapTelegramId, type UserRow } from '../../db/repos/users.js';
import { tokenListQuery, type TokenRow } from '../../db/repos/tokens.js';
import { affCode } from './self-service.js';

/** The enabled account a Telegram user is bound to, if any. */
export async function telegramAccount(ctx: AppContext, telegramId: number): Promise<UserRow | undefined> {
  const user = await findUserByTelegramId(ctx.db, telegramId);
  return user?.status === USER_STATUS.enabled ? user : undefined;
}

/**
 * Links a Telegram user to the account whose access token they sent. An account already linked to
 * another Telegram user, or a Telegram user already linked to another account, is refused; the
 * conditional update makes two racing binds of one account end with one winner.
 */
export async function bindTelegram(ctx: AppContext, accessToken: string, telegramId: number): Promise<UserRow> {
  const user = accessToken ? await findUserByAccessToken(ctx.db, accessToken) : undefined;
  if (!user || user.status !== USER_STATUS.enabled) throw new HubError(400, 'invalid access token', { code: 'invalid_token' });
  if (user.telegram_id === telegramId) return user;
  if (user.telegram_id) throw new HubError(409, 'account bound to another Telegram user', { code: 'bound_elsewhere' });
  const holder = await findUserByTelegramId(ctx.db, telegramId);
  if (holder) throw new HubError(409, 'Telegram user bound to another account', { code: 'telegram_taken' });
  if (!(await swapTelegramId(ctx.db, user.id, 0, telegramId))) throw new HubError(409, 'account bound to another Telegram user', { code: 'bound_elsewhere' });
  await ctx.store.publish(EVENTS.users, String(user.id));
  return user;
}

export async function unbindTelegram(ctx: AppContext, user: UserRow): Promise<void> {
  await swapTelegramId(ctx.db, user.id, user.telegram_id, 0);
  await ctx.store.publish(EVENTS.users, String(user.id));
}

/** The user's live tokens, newest first (at most `limit`). */
export function userTokens(ctx: AppContext, user: UserRow, limit = 20): Promise<TokenRow[]> {
  return tokenListQuery(ctx.db, { userId: user.id }).orderBy('tokens.id', 'desc').limit(limit).execute();
}

/** The user's invitation link (creating the code on first use) and reward counters. */
export async function inviteInfo(ctx: AppContext, user: UserRow): Promise<{ link: string; count: number; quota: number; history: number }> {
  const code = await affCode(ctx, user);
  const server = ctx.options.get('ServerAddress').replace(/\/+$/, '');
  return { link: `${server}/register?aff=${encodeURIComponent(code)}`, count: user.aff_count, quota: user.aff_quota, history: user.aff_history };
}
