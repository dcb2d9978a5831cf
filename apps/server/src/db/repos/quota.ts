import type { Db } from '../index.js';
import { addToColumns } from '../locks.js';

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

/** Users' counters, locked and written in id order (one multi-row statement on PostgreSQL and MySQL). */
export async function applyUserDeltas(db: Db, deltas: Map<number, UserDelta>): Promise<void> {
  const rows = new Map([...deltas].map(([id, d]) => [id, [d.quota, d.usedQuota, d.requests]]));
  await addToColumns(db, 'users', [{ name: 'quota', clamped: true }, { name: 'used_quota' }, { name: 'request_count' }], rows);
}

/** Tokens' counters, in id order (after the users: the global lock order). */
export async function applyTokenDeltas(db: Db, deltas: Map<number, TokenDelta>): Promise<void> {
  const rows = new Map([...deltas].map(([id, d]) => [id, [d.remain, d.usedQuota]]));
  await addToColumns(db, 'tokens', [{ name: 'remain_quota', clamped: true }, { name: 'used_quota' }], rows);
}

/** Channels' used quota, in id order (last in the lock order). */
export async function applyChannelUsage(db: Db, deltas: Map<number, number>): Promise<void> {
  await addToColumns(db, 'channels', [{ name: 'used_quota' }], new Map([...deltas].map(([id, used]) => [id, [used]])));
}
