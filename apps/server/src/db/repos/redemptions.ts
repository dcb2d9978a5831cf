import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { RedemptionsTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';
import { REDEMPTION_STATUS } from '@one-hub/contract';

export type RedemptionRow = Selectable<RedemptionsTable>;

export function findRedemptionById(db: Db, id: number): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRedemptionByKey(db: Db, key: string): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function insertRedemption(db: Db, row: Insertable<RedemptionsTable>): Promise<void> {
  await db.insertInto('redemptions').values(row).execute();
}

export async function updateRedemption(db: Db, id: number, patch: Updateable<RedemptionsTable>): Promise<void> {
  await db.updateTable('redemptions').set(patch).where('id', '=', id).execute();
}

export async function deleteRedemption(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Claims an unused code for a user: one conditional UPDATE, so of any number of
 * concurrent redeems exactly one sees an affected row.
 */
export async function claimRedemption(db: Db, id: number, userId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status: REDEMPTION_STATUS.used, redeemed_time: now, used_user_id: userId })
    .where('id', '=', id)
    .where('status', '=', REDEMPTION_STATUS.unused)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function redemptionListQuery(db: Db, keyword: string) {
  let query = db.selectFrom('redemptions').selectAll();
  const word = keyword.trim();
  if (word) {
    query = query.where((eb) => {
      const ors = [likeMatch('name', `${likeText(word)}%`)];
      if (/^\d+$/.test(word)) ors.push(eb('id', '=', Number(word)));
      return eb.or(ors);
    });
  }
  return query;
}

export const REDEMPTION_ORDER_COLUMNS = ['id', 'name', 'status', 'quota', 'created_time', 'redeemed_time'] as const;
