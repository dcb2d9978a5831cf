import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { WebauthnCredentialsTable } from '../schema.js';

export type CredentialRow = Selectable<WebauthnCredentialsTable>;

export async function userHasPasskey(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export function listUserCredentials(db: Db, userId: number): Promise<CredentialRow[]> {
  return db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function findCredential(db: Db, credentialId: string): Promise<CredentialRow | undefined> {
  return db.selectFrom('webauthn_credentials').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function insertCredential(db: Db, row: Insertable<WebauthnCredentialsTable>): Promise<void> {
  await db.insertInto('webauthn_credentials').values(row).execute();
}

/** Moves the sign counter forward; false when another sign-in already moved it this far (a replay). */
export async function advanceCounter(db: Db, id: number, counter: number): Promise<boolean> {
  const r = await db
    .updateTable('webauthn_credentials')
    .set({ sign_count: counter })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('sign_count', '<', counter), sql<boolean>`${counter} = 0`]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes the user's own credential; false when there is none with that id for them. */
export async function deleteUserCredential(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
