import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { UserGroupsTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';

export type UserGroupRow = Selectable<UserGroupsTable>;

export function listAllUserGroups(db: Db): Promise<UserGroupRow[]> {
  return db.selectFrom('user_groups').selectAll().orderBy('id').execute();
}

export function findUserGroupById(db: Db, id: number): Promise<UserGroupRow | undefined> {
  return db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserGroupBySymbol(db: Db, symbol: string): Promise<UserGroupRow | undefined> {
  return db.selectFrom('user_groups').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export async function insertUserGroup(db: Db, row: Insertable<UserGroupsTable>): Promise<void> {
  await db.insertInto('user_groups').values(row).execute();
}

export async function updateUserGroup(db: Db, id: number, patch: Updateable<UserGroupsTable>): Promise<void> {
  await db.updateTable('user_groups').set(patch).where('id', '=', id).execute();
}

export async function deleteUserGroup(db: Db, id: number): Promise<void> {
  await db.deleteFrom('user_groups').where('id', '=', id).execute();
}

export function userGroupListQuery(db: Db, name?: string, enable?: boolean) {
  let query = db.selectFrom('user_groups').selectAll();
  if (name) query = query.where(likeMatch('name', `${likeText(name)}%`));
  if (enable !== undefined) query = query.where('enable', '=', enable ? 1 : 0);
  return query;
}

// Beyond api.md's id/name/enable: the console makes every user-group column sortable (console-screens §3.17).
export const USER_GROUP_ORDER_COLUMNS = ['id', 'name', 'enable', 'symbol', 'ratio', 'api_rate', 'public', 'promotion', 'min', 'max'] as const;
