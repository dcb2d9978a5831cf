import type { SharedStore } from '../../../cache/shared-store.js';
import { HubError, apiError } from '../../../common/errors.js';

/**
 * One counter per account for second-factor codes, shared by sign-in, step-up and disable, on the
 * shared store so it holds across sign-in rounds and nodes. MAX_WRONG wrong codes within
 * WINDOW_SECONDS lock the account's codes for LOCK_SECONDS; a right code clears the count.
 */
export const MAX_WRONG = 5;
const WINDOW_SECONDS = 15 * 60;
export const LOCK_SECONDS = 15 * 60;

const failKey = (userId: number) => `2fa:fail:${userId}`;
const lockKey = (userId: number) => `2fa:lock:${userId}`;

function locked(untilMs: number): HubError {
  const seconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1000));
  return apiError(429, 'two_factor_locked', { seconds });
}

/**
 * Runs `check` for one code unless the account is locked. The try is counted before the check,
 * so parallel guesses cannot pass the limit together.
 */
export async function limitedCheck(store: SharedStore, userId: number, check: () => Promise<boolean>): Promise<boolean> {
  const until = Number(await store.get(lockKey(userId)));
  if (until > Date.now()) throw locked(until);
  const attempt = await store.incrWindow(failKey(userId), WINDOW_SECONDS);
  if (attempt > MAX_WRONG) throw locked(Date.now() + LOCK_SECONDS * 1000);
  if (await check()) {
    await store.del(failKey(userId));
    return true;
  }
  if (attempt === MAX_WRONG) {
    await store.set(lockKey(userId), String(Date.now() + LOCK_SECONDS * 1000), LOCK_SECONDS);
    await store.del(failKey(userId));
  }
  return false;
}

/** Lifts the lock (an administrator reset the user's two-factor). */
export async function clearGuessLimit(store: SharedStore, userId: number): Promise<void> {
  await store.del(failKey(userId));
  await store.del(lockKey(userId));
}
