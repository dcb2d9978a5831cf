import { describe, expect, it } from 'vitest';
import { isLockConflict, lockConflicts, retryOnLockConflict } from './retry.js';

const pgDeadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
const mysqlDeadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK', errno: 1213, sqlState: '40001' });

describe('lock conflicts are retried inside the gateway', () => {
  it('knows the deadlock and serialization errors of each database, and nothing else', () => {
    expect(isLockConflict(pgDeadlock)).toBe(true);
    expect(isLockConflict({ code: '40001' })).toBe(true);
    expect(isLockConflict(mysqlDeadlock)).toBe(true);
    expect(isLockConflict({ errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' })).toBe(true);
    expect(isLockConflict({ code: 'SQLITE_BUSY' })).toBe(true);
    expect(isLockConflict({ code: '23505' })).toBe(false); // unique violation: the data is at fault
    expect(isLockConflict({ errno: 1062 })).toBe(false);
    expect(isLockConflict(new Error('boom'))).toBe(false);
    expect(isLockConflict(undefined)).toBe(false);
  });

  it('runs the transaction again after a deadlock and answers its result', async () => {
    const before = lockConflicts.retried;
    let runs = 0;
    const result = await retryOnLockConflict(async () => {
      runs++;
      if (runs < 3) throw runs === 1 ? pgDeadlock : mysqlDeadlock;
      return 'committed';
    }, { baseMs: 1 });
    expect(result).toBe('committed');
    expect(runs).toBe(3);
    expect(lockConflicts.retried - before).toBe(2);
  });

  it('throws other errors at once, and a conflict that outlasts every attempt', async () => {
    let runs = 0;
    await expect(retryOnLockConflict(async () => {
      runs++;
      throw new Error('syntax error');
    })).rejects.toThrow('syntax error');
    expect(runs).toBe(1);
    runs = 0;
    await expect(retryOnLockConflict(async () => {
      runs++;
      throw pgDeadlock;
    }, { attempts: 4, baseMs: 1 })).rejects.toBe(pgDeadlock);
    expect(runs).toBe(4);
  });
});
