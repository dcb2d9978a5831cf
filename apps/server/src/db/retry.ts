import type { Transaction } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';

/**
 * A transaction the database ended to break a lock cycle or a serialization conflict:
 * PostgreSQL 40P01 (deadlock) and 40001 (serialization), MySQL/MariaDB 1213 (deadlock) and
 * 1205 (lock wait timeout), SQLite SQLITE_BUSY (another writer past busy_timeout). Nothing
 * of it was written, so running it again is safe.
 */
export function isLockConflict(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = String(e.code ?? '');
  if (code === '40P01' || code === '40001' || code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code.startsWith('SQLITE_BUSY')) return true;
  return e.errno === 1213 || e.errno === 1205;
}

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts?: number;
  /** Backoff before the second run, doubled each time, with jitter (ms). */
  baseMs?: number;
}

/** Lock conflicts retried since start-up: tests and the bench assert it stays 0 (the lock order works). */
export const lockConflicts = { retried: 0 };

/**
 * Runs `fn` again when the database aborted it for a lock conflict (see isLockConflict), with
 * jittered backoff, so a deadlock never reaches a caller as an error. Other errors, and a
 * conflict on the last attempt, are thrown. `fn` must be a whole transaction (or one statement).
 */
export async function retryOnLockConflict<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 6;
  const base = opts.baseMs ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
      lockConflicts.retried++;
      await new Promise((r) => setTimeout(r, base * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }
}

/**
 * A transaction retried on lock conflicts. Every transaction touching balances goes through
 * here and locks rows in one global order (docs/decisions/0081-lock-order-and-retries-as-a-backstop.md): claim rows
 * (orders, redemptions, tasks) → users by id → tokens by id → quota_leases by id → channels
 * by id; log rows and roll-ups are written last. The callback may run more than once: it
 * must not keep effects outside the transaction from a failed run.
 */
export function transact<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>, opts?: RetryOptions): Promise<T> {
  return retryOnLockConflict(() => db.transaction().execute(fn), opts);
}
