import { StoredTokenSettingSchema, type TokenSetting } from '@one-hub/contract';
import { parseJsonOr } from '../../common/json.js';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { TokensTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';
import { randomAlnum } from '../../common/random.js';

export type TokenRow = Selectable<TokensTable>;

/** The `setting` column with every member filled in; malformed text reads as the defaults. */
export function readTokenSetting(text: string | null): TokenSetting {
  const parsed = StoredTokenSettingSchema.safeParse(parseJsonOr<unknown>(text, undefined));
  return parsed.success ? parsed.data : StoredTokenSettingSchema.parse(undefined);
}

/** 48 random characters of [0-9a-zA-Z] (≈285 bits); shown to callers as `sk-` + key. */
export const generateTokenKey = (): string => randomAlnum(48);

const live = (db: Db) => db.selectFrom('tokens').where('deleted_at', 'is', null);

export function findTokenByKey(db: Db, key: string): Promise<TokenRow | undefined> {
  return live(db).selectAll().where('key', '=', key).executeTakeFirst();
}

export function findTokenById(db: Db, id: number): Promise<TokenRow | undefined> {
  return live(db).selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTokenByName(db: Db, userId: number, name: string): Promise<TokenRow | undefined> {
  return live(db).selectAll().where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
}

export async function insertToken(db: Db, row: Insertable<TokensTable>): Promise<void> {
  await db.insertInto('tokens').values(row).execute();
}

export async function updateToken(db: Db, id: number, patch: Updateable<TokensTable>): Promise<void> {
  await db.updateTable('tokens').set(patch).where('id', '=', id).execute();
}

export async function softDeleteToken(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('tokens').set({ deleted_at: now }).where('id', '=', id).execute();
}

export function tokenListQuery(db: Db, filter: { userId?: number; tokenId?: number; keyword?: string }) {
  let query = db
    .selectFrom('tokens')
    .where('tokens.deleted_at', 'is', null)
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('tokens')
    .select(sql<string>`coalesce(nullif(users.display_name, ''), users.username)`.as('owner_name'));
  if (filter.userId) query = query.where('tokens.user_id', '=', filter.userId);
  if (filter.tokenId) query = query.where('tokens.id', '=', filter.tokenId);
  if (filter.keyword?.trim()) query = query.where(likeMatch('tokens.name', `${likeText(filter.keyword.trim())}%`));
  return query;
}

export const TOKEN_ORDER_COLUMNS = ['id', 'name', 'status', 'expired_time', 'created_time', 'accessed_time', 'remain_quota', 'used_quota'] as const;
