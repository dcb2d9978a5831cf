import type BetterSqlite3 from 'better-sqlite3';
import { nowSeconds } from '../../common/time.js';

export type ReserveResult = 'ok' | 'token' | 'user';

export interface HoldRequest {
  tokenId: number;
  userId: number;
  unlimited: boolean;
  amount: number;
}

interface Statements {
  token: BetterSqlite3.Statement;
  user: BetterSqlite3.Statement;
  undoToken: BetterSqlite3.Statement;
  /** The batch as one transaction, wrapped once per connection. */
  batch: (holds: HoldRequest[], now: number) => ReserveResult[];
}

const statements = new WeakMap<BetterSqlite3.Database, Statements>();

function prepared(raw: BetterSqlite3.Database): Statements {
  let s = statements.get(raw);
  if (!s) {
    s = {
      token: raw.prepare(
        'UPDATE tokens SET remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ? AND remain_quota >= ?',
      ),
      user: raw.prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?'),
      undoToken: raw.prepare('UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota - ? WHERE id = ?'),
      batch: raw.transaction((holds: HoldRequest[], now: number) => holdAll(s!, holds, now)),
    };
    statements.set(raw, s);
  }
  return s;
}

/**
 * One hold as conditional updates. Called inside a transaction: when the user
 * cannot pay, the token part is given back in the same transaction.
 */
function holdOne(s: Statements, h: HoldRequest, now: number): ReserveResult {
  if (!h.unlimited && s.token.run(h.amount, h.amount, now, h.tokenId, h.amount).changes !== 1) return 'token';
  if (s.user.run(h.amount, h.userId, h.amount).changes === 1) return 'ok';
  if (!h.unlimited) s.undoToken.run(h.amount, h.amount, h.tokenId);
  return 'user';
}

/**
 * A batch's holds, those of one token and user taken together first: one busy key's
 * concurrent requests cost one update instead of one each. When the sum does not fit,
 * that group's holds go one by one, so the outcome is what holding them in turn gives
 * (every prefix of a fitting sum fits too).
 */
function holdAll(s: Statements, holds: HoldRequest[], now: number): ReserveResult[] {
  if (holds.length === 1) return [holdOne(s, holds[0], now)];
  const groups = new Map<string, number[]>();
  holds.forEach((h, i) => {
    const key = `${h.tokenId}:${h.userId}:${h.unlimited}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  const results = new Array<ReserveResult>(holds.length);
  for (const group of groups.values()) {
    if (group.length > 1) {
      const amount = group.reduce((sum, i) => sum + holds[i].amount, 0);
      if (holdOne(s, { ...holds[group[0]], amount }, now) === 'ok') {
        for (const i of group) results[i] = 'ok';
        continue;
      }
    }
    for (const i of group) results[i] = holdOne(s, holds[i], now);
  }
  return results;
}

/** Holds several requests in one SQLite transaction (one commit), each hold all-or-nothing. */
export function holdBatchSync(raw: BetterSqlite3.Database, holds: HoldRequest[]): ReserveResult[] {
  return prepared(raw).batch(holds, nowSeconds());
}

interface Queued extends HoldRequest {
  resolve: (r: ReserveResult) => void;
  reject: (e: unknown) => void;
}

/** A batch smaller than this waits one more event-loop turn for the holds of the next one. */
export const SMALL_HOLD_BATCH = 8;

/**
 * Group commit for holds on SQLite: holds asked for during an event-loop turn are
 * written together right after it (a commit costs ~10× an update); a small batch
 * waits one turn more, so under load a commit serves about twice as many holds.
 * Idle, that turn costs microseconds; saturated, the thread has other work meanwhile.
 * `fallback` serves them when an async transaction holds the connection.
 */
export class SqliteHoldBatcher {
  private queue: Queued[] = [];
  private readonly afterTurn = () => (this.queue.length < SMALL_HOLD_BATCH ? setImmediate(this.flush) : this.flush());

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly fallback: (h: HoldRequest) => Promise<ReserveResult>,
  ) {}

  hold(h: HoldRequest): Promise<ReserveResult> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ ...h, resolve, reject }) === 1) setImmediate(this.afterTurn);
    });
  }

  private readonly flush = (): void => {
    const batch = this.queue;
    this.queue = [];
    if (this.raw.inTransaction) {
      for (const q of batch) this.fallback(q).then(q.resolve, q.reject);
      return;
    }
    try {
      const results = holdBatchSync(this.raw, batch);
      batch.forEach((q, i) => q.resolve(results[i]));
    } catch (error) {
      for (const q of batch) q.reject(error);
    }
  };
}
