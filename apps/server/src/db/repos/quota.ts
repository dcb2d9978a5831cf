import { sql } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteHandle, type Db } from '../index.js';
import { nowSeconds } from '../../common/time.js';
import { SqliteHoldBatcher, type HoldRequest, type ReserveResult } from './quota-sqlite.js';

export type { ReserveResult };

class Shortfall extends Error {
  constructor(readonly who: 'token' | 'user') {
    super(who);
  }
}

const batchers = new WeakMap<BetterSqlite3.Database, SqliteHoldBatcher>();

/**
 * Holds `amount` on the token (unless unlimited) and the user in one
 * transaction of conditional updates: a balance can never go below zero and
 * concurrent requests can never hold more than there is.
 */
export async function reserveQuota(db: Db, tokenId: number, userId: number, unlimited: boolean, amount: number): Promise<ReserveResult> {
  if (amount <= 0) return 'ok';
  const hold = { tokenId, userId, unlimited, amount };
  const raw = sqliteHandle(db);
  if (raw) {
    let batcher = batchers.get(raw);
    if (!batcher) {
      batcher = new SqliteHoldBatcher(raw, (h) => reserveInTransaction(db, h));
      batchers.set(raw, batcher);
    }
    return batcher.hold(hold);
  }
  return reserveInTransaction(db, hold);
}

async function reserveInTransaction(db: Db, { tokenId, userId, unlimited, amount }: HoldRequest): Promise<ReserveResult> {
  try {
    await db.transaction().execute(async (trx) => {
      if (!unlimited) {
        const t = await trx
          .updateTable('tokens')
          .set({
            remain_quota: sql`remain_quota - ${amount}`,
            used_quota: sql`used_quota + ${amount}`,
            accessed_time: nowSeconds(),
          })
          .where('id', '=', tokenId)
          .where('remain_quota', '>=', amount)
          .executeTakeFirst();
        if (Number(t.numUpdatedRows) !== 1) throw new Shortfall('token');
      }
      const u = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${amount}` })
        .where('id', '=', userId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      if (Number(u.numUpdatedRows) !== 1) throw new Shortfall('user');
    });
    return 'ok';
  } catch (error) {
    if (error instanceof Shortfall) return error.who;
    throw error;
  }
}

/** Adds to a balance column without letting it fall below zero (portable CASE). */
const clampedAdd = (column: 'quota' | 'remain_quota', delta: number) =>
  sql<number>`CASE WHEN ${sql.ref(column)} + ${delta} < 0 THEN 0 ELSE ${sql.ref(column)} + ${delta} END`;

export interface UserDelta {
  quota: number;
  usedQuota: number;
  requests: number;
}

export async function applyUserDeltas(db: Db, deltas: Map<number, UserDelta>): Promise<void> {
  for (const [id, d] of deltas) {
    await db
      .updateTable('users')
      .set({
        quota: clampedAdd('quota', d.quota),
        used_quota: sql`used_quota + ${d.usedQuota}`,
        request_count: sql`request_count + ${d.requests}`,
      })
      .where('id', '=', id)
      .execute();
  }
}

export async function applyTokenDeltas(db: Db, deltas: Map<number, number>): Promise<void> {
  for (const [id, refund] of deltas) {
    if (refund === 0) continue;
    await db
      .updateTable('tokens')
      .set({ remain_quota: clampedAdd('remain_quota', refund), used_quota: sql`used_quota - ${refund}` })
      .where('id', '=', id)
      .execute();
  }
}

export async function applyChannelUsage(db: Db, deltas: Map<number, number>): Promise<void> {
  for (const [id, used] of deltas) {
    if (used === 0) continue;
    await db.updateTable('channels').set({ used_quota: sql`used_quota + ${used}` }).where('id', '=', id).execute();
  }
}
