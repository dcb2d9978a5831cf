import type { AppContext } from '../../../app-context.js';
import type { NewLog } from '../../../db/repos/logs.js';
import { writeFlushAtOnce, writeLogsAndStats, type StatRow } from '../../../db/repos/log-writes.js';
import { STAT_SUMS } from '../../../db/repos/rollup-rows.js';
import { applyChannelUsage, applyTokenDeltas, applyUserDeltas, type TokenDelta, type UserDelta } from '../../../db/repos/quota.js';
import { LEASE_KIND, spendLeases, type LeaseSpend } from '../../../db/repos/quota-leases.js';
import type { SpendTarget } from './leases.js';
import { transact } from '../../../db/retry.js';

export interface Settlement {
  userId: number;
  tokenId: number;
  unlimited: boolean;
  channelId: number;
  /** What the request is charged. */
  billed: number;
  /** Lease rows the charge is taken from (see LeaseBook); without them it is charged to the balances. */
  spend?: { user: SpendTarget; token?: SpendTarget };
  /** Requests it counts (1 unless a charge is one of several of one request, as a realtime session's responses). */
  requests?: number;
}

/**
 * Rows queued before a flush is brought forward. A log row costs SQLite ≈8 µs with its
 * indexes, and the batch is written synchronously: at 8 000 requests/s a whole interval's
 * rows would stall every request for ≈60 ms, a batch of this size for ≈2 ms.
 */
export const LOG_BATCH_ROWS = 256;

/**
 * A SQLite flush does not wait for the write lock while another connection (the log deletion's
 * worker) holds it: the wait would be the event loop's (better-sqlite3 is synchronous). The batch
 * stays queued, ahead of newer rows, and is tried again FLUSH_RETRY_MS later; once it has waited
 * FLUSH_DEFER_MAX_MS a flush waits on busy_timeout as any other write does, so that a writer which
 * never lets go cannot hold the rows back for good.
 */
export const FLUSH_RETRY_MS = 5;

/** A roll-up row's key in the queue: one per day, user, channel and model. */
const statKey = (date: string, userId: number, channelId: number, model: string) => `${date}|${userId}|${channelId}|${model}`;
export const FLUSH_DEFER_MAX_MS = 1000;

/**
 * Writes charges, usage counters, log rows and the daily roll-up in batches off
 * the request path; flushed every BATCH_FLUSH_MS, whenever LOG_BATCH_ROWS rows
 * are waiting, and on shutdown. Holds are settled in memory by the LeaseBook;
 * here their charges only wait to be written.
 */
export class Recorder {
  private users = new Map<number, UserDelta>();
  private tokens = new Map<number, TokenDelta>();
  private leases = new Map<number, LeaseSpend>();
  private channels = new Map<number, number>();
  private logs: NewLog[] = [];
  /** When the first row of the queued batch, and of the batch being written, arrived (ms; 0 = none). */
  private queuedSince = 0;
  private writingSince = 0;
  private stats = new Map<string, StatRow>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private flushSoon = false;
  private readonly unfinished = new Set<Promise<unknown>>();
  private lastSecond = -1;
  private lastDate = '';
  /** Since when the queued batch has been put back because the file was busy (ms; 0 = it was not). */
  private deferredSince = 0;
  private retry: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly ctx: AppContext) {
    this.timer = setInterval(() => void this.flush(), ctx.config.BATCH_FLUSH_MS);
    this.timer.unref();
  }

  /** Counts a served request and queues its charge. */
  settle(s: Settlement): void {
    const u = this.users.get(s.userId) ?? { quota: 0, usedQuota: 0, requests: 0 };
    u.usedQuota += s.billed;
    u.requests += s.requests ?? 1;
    this.users.set(s.userId, u);
    const t = s.unlimited ? undefined : (this.tokens.get(s.tokenId) ?? { remain: 0, usedQuota: 0 });
    if (t) {
      t.usedQuota += s.billed;
      this.tokens.set(s.tokenId, t);
    }
    if (s.billed) {
      this.channels.set(s.channelId, (this.channels.get(s.channelId) ?? 0) + s.billed);
      this.charge(s.spend?.user ?? { kind: LEASE_KIND.user, ownerId: s.userId, rowId: undefined }, s.billed, u, undefined);
      if (t) this.charge(s.spend?.token ?? { kind: LEASE_KIND.token, ownerId: s.tokenId, rowId: undefined }, s.billed, undefined, t);
    }
  }

  /** A charge goes against the lease row it was held from, else straight to the balance. */
  private charge(target: SpendTarget, amount: number, u: UserDelta | undefined, t: TokenDelta | undefined): void {
    if (target.rowId === undefined) {
      if (u) u.quota -= amount;
      if (t) t.remain -= amount;
      return;
    }
    const l = this.leases.get(target.rowId);
    if (l) l.amount += amount;
    else this.leases.set(target.rowId, { kind: target.kind, ownerId: target.ownerId, amount });
  }

  /** Seconds the oldest log row not yet in the database has waited (0 when none): the batch lag operators graph. */
  logLagSeconds(now = Date.now()): number {
    const since = this.writingSince || this.queuedSince;
    return since ? (now - since) / 1000 : 0;
  }

  log(row: NewLog): void {
    if (!this.logs.length) this.queuedSince = Date.now();
    if (this.logs.push(row) >= LOG_BATCH_ROWS && !this.flushSoon && !this.retry) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
    if (row.type !== 2) return;
    const date = this.dateOf(row.created_at);
    const key = statKey(date, row.user_id ?? 0, row.channel_id ?? 0, row.model_name ?? '');
    const s = this.stats.get(key) ?? {
      date,
      user_id: row.user_id ?? 0,
      channel_id: row.channel_id ?? 0,
      model_name: row.model_name ?? '',
      request_count: 0,
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      request_time: 0,
    };
    s.request_count += 1;
    s.quota += row.quota ?? 0;
    s.prompt_tokens += row.prompt_tokens ?? 0;
    s.completion_tokens += row.completion_tokens ?? 0;
    s.request_time += row.request_time ?? 0;
    this.stats.set(key, s);
  }

  /** The UTC day of a timestamp; rows come in time order, so one second's answer serves them all. */
  private dateOf(seconds: number): string {
    if (seconds !== this.lastSecond) {
      this.lastSecond = seconds;
      this.lastDate = new Date(seconds * 1000).toISOString().slice(0, 10);
    }
    return this.lastDate;
  }

  /** Writes everything queued so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  private async writeBatch(): Promise<void> {
    try {
      await this.writeQueued();
    } finally {
      this.writingSince = 0;
    }
  }

  private async writeQueued(): Promise<void> {
    const counters = { users: this.users, tokens: this.tokens, leases: this.leases, channels: this.channels };
    const logs = this.logs;
    const stats = [...this.stats.values()];
    if (!counters.users.size && !counters.tokens.size && !counters.leases.size && !counters.channels.size && !logs.length) return;
    this.users = new Map();
    this.tokens = new Map();
    this.leases = new Map();
    this.channels = new Map();
    this.logs = [];
    this.stats = new Map();
    if (logs.length) this.writingSince = this.queuedSince;
    this.queuedSince = 0;
    const db = this.ctx.db;
    const patient = this.closing || (this.deferredSince !== 0 && Date.now() - this.deferredSince >= FLUSH_DEFER_MAX_MS);
    try {
      const written = writeFlushAtOnce(db, counters, logs, stats, patient ? undefined : 0);
      if (written === 'busy') return this.putBack(counters, logs, stats);
      this.deferredSince = 0;
      if (written) return;
    } catch (error) {
      this.deferredSince = 0;
      // Rolled back whole: the two-step path below writes what it can and keeps failed counters.
      this.ctx.log.warn({ err: error }, 'one-transaction flush failed; writing counters and log rows separately');
    }
    try {
      await transact(db, async (trx) => {
        await applyUserDeltas(trx, counters.users);
        await applyTokenDeltas(trx, counters.tokens);
        await spendLeases(trx, counters.leases);
        await applyChannelUsage(trx, counters.channels);
      });
    } catch (error) {
      this.ctx.log.error({ err: error }, 'counter flush failed; will retry');
      this.requeue(counters);
    }
    try {
      await writeLogsAndStats(db, logs, stats);
    } catch (error) {
      this.ctx.log.error({ err: error, rows: logs.length }, 'log flush failed');
    }
  }

  /** A batch the busy file refused goes back ahead of what came meanwhile, and is tried again shortly. */
  private putBack(counters: Parameters<Recorder['requeue']>[0], logs: NewLog[], stats: StatRow[]): void {
    this.requeue(counters);
    if (logs.length) {
      this.logs = logs.concat(this.logs);
      this.queuedSince = this.writingSince || this.queuedSince;
    }
    for (const s of stats) {
      const key = statKey(s.date, s.user_id, s.channel_id, s.model_name);
      const now = this.stats.get(key);
      if (now) for (const c of STAT_SUMS) now[c] += s[c];
      else this.stats.set(key, s);
    }
    this.deferredSince ||= Date.now();
    this.retry ??= setTimeout(() => {
      this.retry = undefined;
      void this.flush();
    }, FLUSH_RETRY_MS);
  }

  /** Counters whose write failed wait for the next flush, added to what came meanwhile. */
  private requeue(c: { users: Map<number, UserDelta>; tokens: Map<number, TokenDelta>; leases: Map<number, LeaseSpend>; channels: Map<number, number> }): void {
    for (const [id, d] of c.users) {
      const u = this.users.get(id) ?? { quota: 0, usedQuota: 0, requests: 0 };
      this.users.set(id, { quota: u.quota + d.quota, usedQuota: u.usedQuota + d.usedQuota, requests: u.requests + d.requests });
    }
    for (const [id, d] of c.tokens) {
      const t = this.tokens.get(id) ?? { remain: 0, usedQuota: 0 };
      this.tokens.set(id, { remain: t.remain + d.remain, usedQuota: t.usedQuota + d.usedQuota });
    }
    for (const [id, d] of c.leases) {
      const l = this.leases.get(id);
      this.leases.set(id, { ...d, amount: d.amount + (l?.amount ?? 0) });
    }
    for (const [id, v] of c.channels) this.channels.set(id, (this.channels.get(id) ?? 0) + v);
  }

  /** Work that will still queue rows (a charge waiting on the database): close waits for it before the last flush. */
  awaitBeforeClose(work: Promise<unknown>): void {
    this.unfinished.add(work);
    const done = () => void this.unfinished.delete(work);
    work.then(done, done);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closing = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    await Promise.allSettled([...this.unfinished]);
    await this.flush();
  }
}
