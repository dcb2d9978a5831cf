import type { SharedStore } from '../../cache/shared-store.js';
import { HubError, apiError } from '../../common/errors.js';

/**
 * Brute-force limits of password login, on the shared store so every node agrees.
 *
 * - Per (account, IP): the first FREE_FAILURES failures cost nothing; each further one locks
 *   that pair for a delay that doubles (30 s, 60 s … up to 15 min).
 * - Per account, over all IPs: after ACCOUNT_FAILURES failures within the window, the account
 *   is locked for every IP except those that signed in to it successfully in the last 30 days,
 *   so a distributed guess cannot lock the owner out from their usual address.
 *
 * The account key is the user id when the name resolves, else the typed name, so username and
 * e-mail spellings of one account share their counters.
 */
const FREE_FAILURES = 5;
const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;
const ACCOUNT_FAILURES = 50;
const WINDOW_SECONDS = 15 * 60;
const KNOWN_IP_SECONDS = 30 * 24 * 3600;

export const accountKey = (userId: number | undefined, typed: string) => (userId ? `u${userId}` : `n:${typed.trim().toLowerCase()}`);

const keys = (account: string, ip: string) => ({
  pairFails: `login:fail:${account}:${ip}`,
  pairLock: `login:lock:${account}:${ip}`,
  accountFails: `login:fail:${account}`,
  known: `login:known:${account}:${ip}`,
});

function locked(untilMs: number): HubError {
  const seconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1000));
  return apiError(429, 'login_locked', { seconds });
}

/** Throws 429 when this account may not be tried from this IP right now. */
export async function checkLoginAllowed(store: SharedStore, account: string, ip: string): Promise<void> {
  const k = keys(account, ip);
  const until = Number(await store.get(k.pairLock));
  if (until > Date.now()) throw locked(until);
  const accountFails = Number(await store.get(k.accountFails));
  if (accountFails >= ACCOUNT_FAILURES && !(await store.get(k.known))) {
    throw locked(Date.now() + WINDOW_SECONDS * 1000);
  }
}

export async function recordLoginFailure(store: SharedStore, account: string, ip: string): Promise<void> {
  const k = keys(account, ip);
  await store.incrBy(k.accountFails, 1, WINDOW_SECONDS);
  const fails = await store.incrBy(k.pairFails, 1, WINDOW_SECONDS + MAX_DELAY_SECONDS);
  if (fails <= FREE_FAILURES) return;
  const delay = Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** (fails - FREE_FAILURES - 1));
  await store.set(k.pairLock, String(Date.now() + delay * 1000), delay);
}

/** A successful sign-in clears this IP's failures and remembers the IP as the owner's. */
export async function recordLoginSuccess(store: SharedStore, account: string, ip: string): Promise<void> {
  const k = keys(account, ip);
  await store.del(k.pairFails);
  await store.del(k.pairLock);
  await store.set(k.known, '1', KNOWN_IP_SECONDS);
}
