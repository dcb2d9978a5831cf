import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { holdBatchSync, SMALL_HOLD_BATCH, SqliteHoldBatcher, type HoldRequest } from './quota-sqlite.js';

function freshDb(tokenQuota: number, userQuota: number) {
  const raw = new BetterSqlite3(':memory:');
  raw.exec(`CREATE TABLE tokens (id INTEGER PRIMARY KEY, remain_quota INTEGER, used_quota INTEGER, accessed_time INTEGER);
            CREATE TABLE users (id INTEGER PRIMARY KEY, quota INTEGER);`);
  raw.prepare('INSERT INTO tokens VALUES (1, ?, 0, 0)').run(tokenQuota);
  raw.prepare('INSERT INTO users VALUES (7, ?)').run(userQuota);
  const balances = () => ({
    token: (raw.prepare('SELECT remain_quota, used_quota FROM tokens WHERE id = 1').get() as { remain_quota: number; used_quota: number }),
    user: (raw.prepare('SELECT quota FROM users WHERE id = 7').get() as { quota: number }).quota,
  });
  return { raw, balances };
}

const hold = (amount: number, unlimited = false): HoldRequest => ({ tokenId: 1, userId: 7, unlimited, amount });

describe('holdBatchSync', () => {
  it.each([
    { name: 'token limits', token: 30, user: 1000, holds: [10, 10, 10, 10, 10], want: ['ok', 'ok', 'ok', 'token', 'token'], tokenLeft: 0, userLeft: 970 },
    { name: 'user limits', token: 1000, user: 25, holds: [10, 10, 10], want: ['ok', 'ok', 'user'], tokenLeft: 980, userLeft: 5 },
    { name: 'a big hold fails, a later small one fits', token: 15, user: 1000, holds: [10, 10, 5], want: ['ok', 'token', 'ok'], tokenLeft: 0, userLeft: 985 },
  ])('$name', ({ token, user, holds, want, tokenLeft, userLeft }) => {
    const db = freshDb(token, user);
    expect(holdBatchSync(db.raw, holds.map((a) => hold(a)))).toEqual(want);
    const after = db.balances();
    expect(after.token.remain_quota).toBe(tokenLeft);
    expect(after.token.used_quota).toBe(token - tokenLeft);
    expect(after.user).toBe(userLeft);
  });

  it('gives the token part back when the user cannot pay', () => {
    const db = freshDb(100, 5);
    expect(holdBatchSync(db.raw, [hold(10)])).toEqual(['user']);
    expect(db.balances()).toEqual({ token: { remain_quota: 100, used_quota: 0 }, user: 5 });
  });

  it('takes one key\'s holds together when their sum fits, with one update per balance', () => {
    const db = freshDb(1000, 1000);
    const changes = () => (db.raw.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    const before = changes();
    expect(holdBatchSync(db.raw, Array.from({ length: 15 }, () => hold(10)))).toEqual(Array(15).fill('ok'));
    expect(changes() - before).toBe(2); // the token row and the user row, once each
    expect(db.balances()).toEqual({ token: { remain_quota: 850, used_quota: 150 }, user: 850 });
  });

  it('holds two tokens of one user as if one after another when the user runs short', () => {
    const db = freshDb(1000, 45);
    db.raw.prepare('INSERT INTO tokens VALUES (2, 1000, 0, 0)').run();
    const other = (amount: number): HoldRequest => ({ tokenId: 2, userId: 7, unlimited: false, amount });
    const results = holdBatchSync(db.raw, [hold(10), other(10), hold(10), other(10), hold(10)]);
    // Token 1's three holds (30) fit together; token 2's two (20) do not fit the 15 left, one of them does.
    expect(results).toEqual(['ok', 'ok', 'ok', 'user', 'ok']);
    expect(db.balances().user).toBe(5);
    expect(db.balances().token).toEqual({ remain_quota: 970, used_quota: 30 });
    expect(db.raw.prepare('SELECT remain_quota, used_quota FROM tokens WHERE id = 2').get()).toEqual({ remain_quota: 990, used_quota: 10 });
  });

  it('leaves an unlimited token untouched', () => {
    const db = freshDb(0, 50);
    expect(holdBatchSync(db.raw, [hold(20, true), hold(20, true), hold(20, true)])).toEqual(['ok', 'ok', 'user']);
    expect(db.balances()).toEqual({ token: { remain_quota: 0, used_quota: 0 }, user: 10 });
  });
});

describe('SqliteHoldBatcher', () => {
  /** Counts the batch transactions run on a connection. */
  function countCommits(raw: BetterSqlite3.Database): { commits: number } {
    const counter = { commits: 0 };
    const original = raw.transaction.bind(raw);
    (raw as { transaction: typeof original }).transaction = ((fn: (...a: unknown[]) => unknown) => {
      const run = original(fn);
      return (...args: unknown[]) => {
        counter.commits++;
        return run(...args);
      };
    }) as typeof original;
    return counter;
  }

  it('writes holds asked for in one turn with one commit and never overdraws', async () => {
    const db = freshDb(30, 1000);
    const counter = countCommits(db.raw);
    const batcher = new SqliteHoldBatcher(db.raw, () => Promise.reject(new Error('no fallback expected')));
    const results = await Promise.all(Array.from({ length: 20 }, () => batcher.hold(hold(10))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
    expect(results.filter((r) => r === 'token')).toHaveLength(17);
    expect(counter.commits).toBe(1);
    expect(db.balances().token.remain_quota).toBe(0);
  });

  it('lets a small batch wait one turn for the next turn\'s holds, and writes a full one at once', async () => {
    const db = freshDb(1000, 1000);
    const counter = countCommits(db.raw);
    const batcher = new SqliteHoldBatcher(db.raw, () => Promise.reject(new Error('no fallback expected')));
    const nextTurn = () => new Promise((r) => setImmediate(r));
    const done: number[] = [];
    const first = batcher.hold(hold(10)).then(() => done.push(1));
    await nextTurn();
    expect(done).toEqual([]);
    const second = batcher.hold(hold(10)).then(() => done.push(2));
    await Promise.all([first, second]);
    expect(done).toEqual([1, 2]);
    expect(counter.commits).toBe(1);

    const full = Array.from({ length: SMALL_HOLD_BATCH }, () => batcher.hold(hold(1)).then(() => done.push(3)));
    await nextTurn();
    expect(done).toHaveLength(2 + SMALL_HOLD_BATCH);
    await Promise.all(full);
    expect(counter.commits).toBe(2);
    expect(db.balances().token.remain_quota).toBe(1000 - 20 - SMALL_HOLD_BATCH);
  });

  it('uses the fallback while an async transaction holds the connection', async () => {
    const db = freshDb(30, 1000);
    db.raw.exec('BEGIN');
    const seen: HoldRequest[] = [];
    const batcher = new SqliteHoldBatcher(db.raw, async (h) => {
      seen.push(h);
      return 'ok';
    });
    await expect(batcher.hold(hold(10))).resolves.toBe('ok');
    db.raw.exec('COMMIT');
    expect(seen).toHaveLength(1);
    expect(db.balances().token.remain_quota).toBe(30);
  });
});
