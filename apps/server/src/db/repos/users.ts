import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { UsersTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';
import { uuidHex } from '../../common/random.js';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserPatch = Updateable<UsersTable>;

const live = (db: Db) => db.selectFrom('users').where('deleted_at', 'is', null);

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return live(db).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Usernames of the given users (deleted ones included), by id: one query for a list's name column. */
export async function usernamesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}

export function findUserByAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('access_token', '=', token).executeTakeFirst();
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('username', '=', username).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('email', '=', email).orderBy('id').executeTakeFirst();
}

export async function liveUserIdsByEmail(db: Db, email: string): Promise<number[]> {
  return (await live(db).select('id').where('email', '=', email).execute()).map((r) => r.id);
}

export function findUserByWechatId(db: Db, wechatId: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('wechat_id', '=', wechatId).orderBy('id').executeTakeFirst();
}

/** Columns holding the account id of a sign-in provider. */
export type IdentityColumn = 'github_id' | 'github_id_new' | 'lark_id' | 'linuxdo_id' | 'oidc_id' | 'wechat_id';

/** The user bound to a provider account; never called with an empty id. */
export function findUserByIdentity(db: Db, column: IdentityColumn, value: string | number): Promise<UserRow | undefined> {
  return live(db).selectAll().where(column, '=', value).orderBy('id').executeTakeFirst();
}

export async function maxUserId(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

export function findUserByAffCode(db: Db, code: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('aff_code', '=', code).executeTakeFirst();
}

/** Also counts soft-deleted rows: a deleted name stays reserved until renamed. */
export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function countLiveUsers(db: Db): Promise<number> {
  const row = await live(db).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/**
 * `endSessions` also bumps the session version, so every session issued before is refused, and
 * replaces the access token with a new random one, so the old token dies with the sessions.
 */
export async function updateUser(db: Db, id: number, patch: UserPatch, endSessions = false): Promise<void> {
  await db
    .updateTable('users')
    .set(endSessions ? { ...patch, session_version: sql`session_version + 1`, access_token: uuidHex() } : patch)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Adds a signed delta to a user's quota. */
export async function addUserQuota(db: Db, id: number, delta: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ quota: sql`quota + ${delta}` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the invite reward as paid; true only for the one caller that flips it. */
export async function claimAffReward(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ aff_reward_paid: 1 })
    .where('id', '=', id)
    .where('aff_reward_paid', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function recordInviteReward(db: Db, inviterId: number, reward: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      quota: sql`quota + ${reward}`,
      aff_count: sql`aff_count + 1`,
      aff_quota: sql`aff_quota + ${reward}`,
      aff_history: sql`aff_history + ${reward}`,
    })
    .where('id', '=', inviterId)
    .execute();
}

export async function softDeleteUser(db: Db, id: number, renamedTo: string, now: number): Promise<void> {
  await db.updateTable('users').set({ username: renamedTo, deleted_at: now }).where('id', '=', id).execute();
}

/** Admin list: keyword is an exact id or a prefix of username, email, display name or group. */
export function userListQuery(db: Db, keyword: string) {
  let query = live(db).selectAll();
  const word = keyword.trim();
  if (word) {
    const prefix = `${likeText(word)}%`;
    query = query.where((eb) => {
      const ors = [likeMatch('username', prefix), likeMatch('email', prefix), likeMatch('display_name', prefix), likeMatch('group', prefix)];
      if (/^\d+$/.test(word)) ors.push(eb('id', '=', Number(word)));
      return eb.or(ors);
    });
  }
  return query;
}

export const USER_ORDER_COLUMNS = [
  'id',
  'username',
  'role',
  'status',
  'created_time',
  'last_login_time',
  'last_login_ip',
  'quota',
  'used_quota',
] as const;

export function findUserByTelegramId(db: Db, telegramId: number): Promise<UserRow | undefined> {
  return live(db).selectAll().where('telegram_id', '=', telegramId).orderBy('id').executeTakeFirst();
}

/** Sets (or clears, with 0) the Telegram id only while it still holds `expected`; true when it changed. */
export async function swapTelegramId(db: Db, id: number, expected: number, telegramId: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ telegram_id: telegramId })
    .where('id', '=', id)
    .where('telegram_id', '=', expected)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The first live root account (the one created at install). */
export function findRootUser(db: Db): Promise<UserRow | undefined> {
  return live(db).selectAll().where('role', '=', 100).orderBy('id').executeTakeFirst();
}
