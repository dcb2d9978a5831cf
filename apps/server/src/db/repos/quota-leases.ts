import { sql } from 'kysely';
import type { Db } from '../index.js';
import { dialectOf, insertReturningId } from '../helpers.js';
import { addToColumns, lockInOrder } from '../locks.js';
import { transact } from '../retry.js';
import { nowSeconds } from '../../common/time.js';

/** Whose balance a lease is cut from: users.quota or tokens.remain_quota. */
export const LEASE_KIND = { user: 1, token: 2 } as const;
export type LeaseKind = (typeof LEASE_KIND)[keyof typeof LEASE_KIND];

type Trx = Db;

/** Adds a signed amount to the owner's balance column. A negative amount never takes it below zero. */
async function addToBalance(db: Trx, kind: LeaseKind, ownerId: number, amount: number): Promise<void> {
  if (amount === 0) return;
  if (kind === LEASE_KIND.user) {
    const quota = amount < 0 ? sql<number>`CASE WHEN quota + ${amount} < 0 THEN 0 ELSE quota + ${amount} END` : sql<number>`quota + ${amount}`;
    await db.updateTable('users').set({ quota }).where('id', '=', ownerId).execute();
  } else {
    const remain =
      amount < 0 ? sql<number>`CASE WHEN remain_quota + ${amount} < 0 THEN 0 ELSE remain_quota + ${amount} END` : sql<number>`remain_quota + ${amount}`;
    await db.updateTable('tokens').set({ remain_quota: remain }).where('id', '=', ownerId).execute();
  }
}

/** Locks the owner's row first: every transaction here takes the owner before its lease rows (the global lock order). */
function lockOwner(trx: Trx, kind: LeaseKind, ownerId: number): Promise<unknown> {
  return lockInOrder(trx, kind === LEASE_KIND.user ? 'users' : 'tokens', [ownerId]);
}

/** Takes `amount` out of the balance only if the balance holds it all. */
async function takeFromBalance(db: Trx, kind: LeaseKind, ownerId: number, amount: number): Promise<boolean> {
  const result =
    kind === LEASE_KIND.user
      ? await db.updateTable('users').set({ quota: sql`quota - ${amount}` }).where('id', '=', ownerId).where('quota', '>=', amount).executeTakeFirst()
      : await db
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${amount}`, accessed_time: nowSeconds() })
          .where('id', '=', ownerId)
          .where('remain_quota', '>=', amount)
          .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The owner's balance column (without what leases hold). */
export async function readBalance(db: Trx, kind: LeaseKind, ownerId: number): Promise<number> {
  if (kind === LEASE_KIND.user) {
    const row = await db.selectFrom('users').select('quota').where('id', '=', ownerId).executeTakeFirst();
    return Number(row?.quota ?? 0);
  }
  const row = await db.selectFrom('tokens').select('remain_quota').where('id', '=', ownerId).executeTakeFirst();
  return Number(row?.remain_quota ?? 0);
}

export interface LeaseGrant {
  /** What was moved from the balance into the lease; 0 when the balance is below `need`. */
  taken: number;
  /** The lease row now holding it (a new one when `rowId` was absent or gone). */
  rowId: number | undefined;
  /** The balance column after the take: what other nodes can still cut slices from. */
  left: number;
}

/**
 * Moves up to `want`, and at least `need`, from the owner's balance into a lease row of
 * this node, in one transaction of conditional updates: the balance never goes below
 * zero and two nodes can never take the same quota. Nothing is taken when the balance
 * is below `need`.
 */
export async function takeLease(
  db: Db,
  kind: LeaseKind,
  ownerId: number,
  rowId: number | undefined,
  node: string,
  need: number,
  want: number,
  expiresAt: number,
): Promise<LeaseGrant> {
  return transact(db, async (trx) => {
    let taken = 0;
    let left: number;
    if (await takeFromBalance(trx, kind, ownerId, want)) {
      taken = want;
      left = await readBalance(trx, kind, ownerId);
    } else {
      // Less than wanted is there: take the need and half of the rest, so that another node's
      // hold on the same balance still finds some instead of a false "insufficient quota". The row
      // is locked first: two nodes reading the same balance would both ask for a share of it, and
      // the second's take would find less than it read and come back empty.
      await lockOwner(trx, kind, ownerId);
      const balance = await readBalance(trx, kind, ownerId);
      const share = Math.min(balance, Math.max(need, need + Math.floor((balance - need) / 2)));
      if (balance >= need && share > 0 && (await takeFromBalance(trx, kind, ownerId, share))) taken = share;
      left = balance - taken;
    }
    if (taken === 0) return { taken, rowId, left };
    if (rowId !== undefined) {
      const grown = await trx
        .updateTable('quota_leases')
        .set({ amount: sql`amount + ${taken}`, expires_at: expiresAt })
        .where('id', '=', rowId)
        .executeTakeFirst();
      if (Number(grown.numUpdatedRows) === 1) return { taken, rowId, left };
    }
    const id = await insertReturningId(trx, 'quota_leases', { node, owner_kind: kind, owner_id: ownerId, amount: taken, created_at: nowSeconds(), expires_at: expiresAt });
    return { taken, rowId: id, left };
  });
}

/**
 * Gives `amount` of a lease back to the owner's balance; `drop` also deletes the row when
 * nothing is left in it. Answers 'gone' when the row no longer exists (reclaimed or revoked:
 * its amount went back already, so nothing is given twice), 'dropped' when it was deleted,
 * else 'kept' (spend not yet written still sits in it).
 */
export async function returnLease(db: Db, kind: LeaseKind, ownerId: number, rowId: number, amount: number, drop: boolean): Promise<'gone' | 'kept' | 'dropped'> {
  return transact(db, async (trx) => {
    await lockOwner(trx, kind, ownerId);
    const shrunk = await trx
      .updateTable('quota_leases')
      .set({ amount: sql`amount - ${amount}` })
      .where('id', '=', rowId)
      .where('amount', '>=', amount)
      .executeTakeFirst();
    if (Number(shrunk.numUpdatedRows) !== 1) return 'gone';
    await addToBalance(trx, kind, ownerId, amount);
    if (!drop) return 'kept';
    const gone = await trx.deleteFrom('quota_leases').where('id', '=', rowId).where('amount', '=', 0).executeTakeFirst();
    return Number(gone.numDeletedRows) === 1 ? 'dropped' : 'kept';
  });
}

/** Spend written against one lease row, by the recorder's flush. */
export interface LeaseSpend {
  kind: LeaseKind;
  ownerId: number;
  amount: number;
}

/**
 * Takes settled spend out of lease rows. A row that is gone (revoked or reclaimed while
 * the spend waited) already gave its whole amount back, so the spend is charged to the
 * owner's balance instead: either way it is paid exactly once.
 */
export async function spendLeases(db: Db, spends: Map<number, LeaseSpend>): Promise<void> {
  const ids = [...spends].filter(([, s]) => s.amount !== 0).map(([id]) => id);
  if (dialectOf(db) === 'sqlite') {
    for (const rowId of ids.sort((a, b) => a - b)) {
      const s = spends.get(rowId)!;
      const r = await db.updateTable('quota_leases').set({ amount: sql`amount - ${s.amount}` }).where('id', '=', rowId).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) await addToBalance(db, s.kind, s.ownerId, -s.amount);
    }
    return;
  }
  // The owners' rows are locked already (the flush wrote their counters first), so charging a
  // balance for a gone row keeps the lock order.
  const live = await lockInOrder(db, 'quota_leases', ids);
  await addToColumns(db, 'quota_leases', [{ name: 'amount' }], new Map([...live].map((id) => [id, [-spends.get(id)!.amount]])), true);
  for (const id of ids) {
    const s = spends.get(id)!;
    if (!live.has(id)) await addToBalance(db, s.kind, s.ownerId, -s.amount);
  }
}

/** Extends every lease row of a node; answers the ids that still exist (others were reclaimed or revoked). */
export async function renewLeases(db: Db, node: string, expiresAt: number): Promise<Set<number>> {
  const rows = await db.selectFrom('quota_leases').select('id').where('node', '=', node).execute();
  if (!rows.length) return new Set();
  // By id, rows locked in id order: one UPDATE over the node's rows would lock them in scan
  // order and could meet a revocation (which locks an owner's rows by id) the other way round.
  return transact(db, async (trx) => {
    const live = await lockInOrder(trx, 'quota_leases', rows.map((r) => Number(r.id)));
    const ids = [...live];
    for (let i = 0; i < ids.length; i += 1000) {
      await trx.updateTable('quota_leases').set({ expires_at: expiresAt }).where('id', 'in', ids.slice(i, i + 1000)).where('node', '=', node).execute();
    }
    if (dialectOf(trx) !== 'sqlite') return live;
    const still = await trx.selectFrom('quota_leases').select('id').where('node', '=', node).execute();
    return new Set(still.map((r) => Number(r.id)));
  });
}

/**
 * Gives the amounts of expired lease rows (their node stopped renewing them: it crashed)
 * back to their owners. Each row is deleted and credited in one transaction, conditional
 * on the amount read, so racing nodes credit it once. Answers how many rows were reclaimed.
 */
export async function reclaimExpiredLeases(db: Db, now: number, limit = 500): Promise<number> {
  const rows = await db.selectFrom('quota_leases').select('id').where('expires_at', '<', now).limit(limit).execute();
  let reclaimed = 0;
  for (const { id } of rows) {
    const row = await db.selectFrom('quota_leases').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || Number(row.expires_at) >= now) continue;
    const done = await transact(db, async (trx) => {
      await lockOwner(trx, row.owner_kind as LeaseKind, Number(row.owner_id));
      const gone = await trx.deleteFrom('quota_leases').where('id', '=', id).where('amount', '=', row.amount).where('expires_at', '<', now).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) return false;
      await addToBalance(trx, row.owner_kind as LeaseKind, Number(row.owner_id), Number(row.amount));
      return true;
    });
    if (done) reclaimed++;
  }
  return reclaimed;
}

/**
 * Ends every lease on an owner's balance (all nodes) and gives their amounts back, inside
 * the caller's transaction, so a following absolute or negative change sees the whole
 * balance. Nodes learn it by event; spend they settle afterwards is charged to the balance.
 */
export async function revokeLeases(trx: Db, kind: LeaseKind, ownerId: number): Promise<number> {
  await lockOwner(trx, kind, ownerId);
  const rows = await trx
    .selectFrom('quota_leases')
    .select(['id', 'amount'])
    .where('owner_kind', '=', kind)
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  let total = 0;
  for (const row of rows) {
    const gone = await trx.deleteFrom('quota_leases').where('id', '=', row.id).where('amount', '=', row.amount).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 1) total += Number(row.amount);
  }
  await addToBalance(trx, kind, ownerId, total);
  return total;
}

/** What all nodes' leases hold of an owner's balance right now. */
export async function leasedAmount(db: Db, kind: LeaseKind, ownerId: number): Promise<number> {
  return (await leasedAmounts(db, kind, [ownerId])).get(ownerId) ?? 0;
}

/** What all nodes' leases hold of each owner's balance (owners without leases are absent). */
export async function leasedAmounts(db: Db, kind: LeaseKind, ownerIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < ownerIds.length; i += 1000) {
    const rows = await db
      .selectFrom('quota_leases')
      .select((eb) => ['owner_id', eb.fn.sum<number>('amount').as('total')])
      .where('owner_kind', '=', kind)
      .where('owner_id', 'in', ownerIds.slice(i, i + 1000))
      .groupBy('owner_id')
      .execute();
    for (const r of rows) out.set(Number(r.owner_id), Number(r.total ?? 0));
  }
  return out;
}

/**
 * users.quota plus what leases of every node hold of it, as one SQL expression over `users`: the
 * balance the user actually has (a slice lowers the column, but its unused part is still theirs).
 * Leases, returns and flushed spend move amounts between the two in one transaction, so the sum is
 * steady while requests run.
 */
export const wholeUserQuota = sql<number>`(users.quota + COALESCE((SELECT SUM(quota_leases.amount) FROM quota_leases WHERE quota_leases.owner_kind = ${sql.lit(LEASE_KIND.user)} AND quota_leases.owner_id = users.id), 0))`;

/** Rows with their balance column raised by what leases hold of it (what users and tokens are shown). */
export async function withLeased<T extends { id: number }>(db: Db, kind: LeaseKind, rows: T[], column: keyof T & ('quota' | 'remain_quota')): Promise<T[]> {
  if (!rows.length) return rows;
  const leased = await leasedAmounts(db, kind, rows.map((r) => r.id));
  return rows.map((r) => (leased.has(r.id) ? { ...r, [column]: Number(r[column]) + leased.get(r.id)! } : r));
}

class Short extends Error {}

/**
 * Takes `amount` off a balance including what leases hold of it (they are revoked first, in
 * the same transaction); nothing changes when the whole balance is below the amount.
 * Answers the whole balance when short, else undefined.
 */
export async function deductWholeBalance(db: Db, kind: LeaseKind, ownerId: number, amount: number): Promise<number | undefined> {
  let whole = 0;
  try {
    await transact(db, async (trx) => {
      await revokeLeases(trx, kind, ownerId);
      if (!(await takeFromBalance(trx, kind, ownerId, amount))) {
        whole = await readBalance(trx, kind, ownerId);
        throw new Short();
      }
    });
    return undefined;
  } catch (error) {
    if (error instanceof Short) return whole;
    throw error;
  }
}

/** Sets a token's remaining quota, ending the leases on the old value (inside the caller's transaction). */
export async function setTokenRemain(trx: Db, tokenId: number, remain: number): Promise<void> {
  await revokeLeases(trx, LEASE_KIND.token, tokenId);
  await trx.updateTable('tokens').set({ remain_quota: remain }).where('id', '=', tokenId).execute();
}
