import type { Db } from '../index.js';

export async function userHasPasskey(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
