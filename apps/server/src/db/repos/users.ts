import type { Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export function findUserByAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('access_token', '=', token)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
