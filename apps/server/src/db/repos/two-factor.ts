import type { Selectable } from 'kysely';
import type { Db } from '../index.js';
import type { TwoFactorTable } from '../schema.js';

export type TwoFactorRow = Selectable<TwoFactorTable>;

export function findTwoFactor(db: Db, userId: number): Promise<TwoFactorRow | undefined> {
  return db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** A new, not yet enabled secret replaces any earlier unfinished setup. */
export async function saveTwoFactorSetup(db: Db, userId: number, secret: string, now: number): Promise<void> {
  await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  await db.insertInto('two_factor').values({ user_id: userId, secret, enabled: 0, last_step: 0, recovery: '[]', created_time: now }).execute();
}

export async function enableTwoFactor(db: Db, userId: number, recovery: string[]): Promise<void> {
  await db.updateTable('two_factor').set({ enabled: 1, recovery: JSON.stringify(recovery) }).where('user_id', '=', userId).execute();
}

/** Records the step as used; false when this or a later step was already used (a replay). */
export async function claimStep(db: Db, userId: number, step: number): Promise<boolean> {
  const r = await db.updateTable('two_factor').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Replaces the recovery list only if it is still `before`, so one recovery code works once. */
export async function swapRecovery(db: Db, userId: number, before: string, after: string[]): Promise<boolean> {
  const r = await db
    .updateTable('two_factor')
    .set({ recovery: JSON.stringify(after) })
    .where('user_id', '=', userId)
    .where('recovery', '=', before)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Rows whose secret is still stored in plain text (from before sealing). */
export function listPlainSecrets(db: Db): Promise<Array<{ user_id: number; secret: string }>> {
  return db.selectFrom('two_factor').select(['user_id', 'secret']).where('secret', 'not like', 'enc1:%').execute();
}

/** Replaces a plain secret by its sealed form, only if it is still the plain one. */
export async function replaceSecret(db: Db, userId: number, before: string, after: string): Promise<void> {
  await db.updateTable('two_factor').set({ secret: after }).where('user_id', '=', userId).where('secret', '=', before).execute();
}

export async function deleteTwoFactor(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
}
