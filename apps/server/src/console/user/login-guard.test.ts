import { describe, expect, it } from 'vitest';
import { SharedStore } from '../../cache/shared-store.js';
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-guard.js';

const quiet = { warn() {}, info() {} };

async function lockSeconds(store: SharedStore, account: string, ip: string): Promise<number> {
  try {
    await checkLoginAllowed(store, account, ip);
    return 0;
  } catch (error) {
    return Number(/请 (\d+) 秒/.exec((error as Error).message)?.[1]);
  }
}

describe('login guard', () => {
  it('doubles the lock of an (account, IP) pair with each failure past the fifth, up to 15 minutes', async () => {
    const store = new SharedStore(quiet);
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) {
      await recordLoginFailure(store, 'u1', 'ip');
      seen.push(await lockSeconds(store, 'u1', 'ip'));
    }
    expect(seen).toEqual([0, 0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900]);
    expect(await lockSeconds(store, 'u1', 'other-ip')).toBe(0);
  });

  it('a successful sign-in clears the pair and exempts that IP from the account-wide lock', async () => {
    const store = new SharedStore(quiet);
    await recordLoginSuccess(store, 'u2', 'home');
    for (let i = 0; i < 50; i++) await recordLoginFailure(store, 'u2', `ip${i}`);
    expect(await lockSeconds(store, 'u2', 'elsewhere')).toBeGreaterThan(0);
    expect(await lockSeconds(store, 'u2', 'home')).toBe(0);
  });
});
