import { sql } from 'kysely';
import type { Db } from '../index.js';

/** Adds to a balance column without letting it fall below zero (portable CASE). */
const clampedAdd = (column: 'quota' | 'remain_quota', delta: number) =>
  sql<number>`CASE WHEN ${sql.ref(column)} + ${delta} < 0 THEN 0 ELSE ${sql.ref(column)} + ${delta} END`;

/** A user's changes gathered since the last flush. */
export interface UserDelta {
  /** Charged straight to the balance (spend that no lease held), negative; never below zero. */
  quota: number;
  usedQuota: number;
  requests: number;
}

/** A limited token's changes gathered since the last flush. */
export interface TokenDelta {
  /** Charged straight to the remaining quota, negative; never below zero. */
  remain: number;
  usedQuota: number;
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

export async function applyTokenDeltas(db: Db, deltas: Map<number, TokenDelta>): Promise<void> {
  for (const [id, d] of deltas) {
    await db
      .updateTable('tokens')
      .set({ remain_quota: clampedAdd('remain_quota', d.remain), used_quota: sql`used_quota + ${d.usedQuota}` })
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
