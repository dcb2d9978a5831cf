import { randomHex, uuidHex } from '../../common/random.js';
import type { SharedStore } from '../../cache/shared-store.js';

/**
 * E-mail verification codes and password-reset tokens, kept in the shared store
 * (so every node knows them and they survive a node restart with Redis) for 10
 * minutes, and consumed on use.
 */
const TTL_SECONDS = 600;
type Purpose = 'verify' | 'reset';

const keyOf = (purpose: Purpose, email: string) => `code:${purpose}:${email.toLowerCase()}`;

export async function issueCode(store: SharedStore, purpose: Purpose, email: string): Promise<string> {
  const code = purpose === 'verify' ? randomHex(3) : uuidHex();
  await store.set(keyOf(purpose, email), code, TTL_SECONDS);
  return code;
}

export async function checkCode(store: SharedStore, purpose: Purpose, email: string, code: string): Promise<boolean> {
  const stored = await store.get(keyOf(purpose, email));
  return stored !== null && code.length > 0 && stored === code;
}

export async function consumeCode(store: SharedStore, purpose: Purpose, email: string): Promise<void> {
  await store.del(keyOf(purpose, email));
}
