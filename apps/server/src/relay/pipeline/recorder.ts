import type { AppContext } from '../../app-context.js';
import type { NewLog } from '../../db/repos/logs.js';
import { writeFlushAtOnce, writeLogsAndStats, type StatRow } from '../../db/repos/log-writes.js';
import { applyChannelUsage, applyTokenDeltas, applyUserDeltas, type UserDelta } from '../../db/repos/quota.js';

export interface Settlement {
  userId: number;
  tokenId: number;
  unlimited: boolean;
  channelId: number;
  reserved: number;
  actual: number;
  /** False for a failed attempt: only the hold is released, nothing counts as a request. */
  counted: boolean;
}

/**
 * Rows queued before a flush is brought forward. A log row costs SQLite ≈8 µs with its
 * indexes, and the batch is written synchronously: at 8 000 requests/s a whole interval's
 * rows would stall every request for ≈60 ms, a batch of this size for ≈2 ms.
 */
export const LOG_BATCH_ROWS = 256;

/**
 * Settles holds and writes log rows, counters and the daily roll-up in batches
 * off the request path; flushed every BATCH_FLUSH_MS, whenever LOG_BATCH_ROWS
 * rows are waiting, and on shutdown. A hold is always settled exactly once by
 * its caller; here it only waits.
 */
export class Recorder {
  private users = new Map<number, UserDelta>();
  private tokens = new Map<number, number>();
  private channels = new Map<number, number>();
  private logs: NewLog[] = [];
  private stats = new Map<string, StatRow>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private flushSoon = false;
  private lastSecond = -1;
  private lastDate = '';

  constructor(private readonly ctx: AppContext) {
    this.timer = setInterval(() => void this.flush(), ctx.config.BATCH_FLUSH_MS);
    this.timer.unref();
  }

  settle(s: Settlement): void {
    const refund = s.reserved - s.actual;
    const u = this.users.get(s.userId) ?? { quota: 0, usedQuota: 0, requests: 0 };
    u.quota += refund;
    if (s.counted) {
      u.usedQuota += s.actual;
      u.requests += 1;
    }
    this.users.set(s.userId, u);
    if (!s.unlimited) this.tokens.set(s.tokenId, (this.tokens.get(s.tokenId) ?? 0) + refund);
    if (s.counted && s.actual) this.channels.set(s.channelId, (this.channels.get(s.channelId) ?? 0) + s.actual);
  }

  log(row: NewLog): void {
    if (this.logs.push(row) >= LOG_BATCH_ROWS && !this.flushSoon) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
    if (row.type !== 2) return;
    const date = this.dateOf(row.created_at);
    const key = `${date}|${row.user_id}|${row.channel_id}|${row.model_name}`;
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
    const users = this.users;
    const tokens = this.tokens;
    const channels = this.channels;
    const logs = this.logs;
    const stats = [...this.stats.values()];
    if (!users.size && !tokens.size && !channels.size && !logs.length) return;
    this.users = new Map();
    this.tokens = new Map();
    this.channels = new Map();
    this.logs = [];
    this.stats = new Map();
    const db = this.ctx.db;
    try {
      if (writeFlushAtOnce(db, { users, tokens, channels }, logs, stats)) return;
    } catch (error) {
      // Rolled back whole: the two-step path below writes what it can and keeps failed counters.
      this.ctx.log.warn({ err: error }, 'one-transaction flush failed; writing counters and log rows separately');
    }
    try {
      await db.transaction().execute(async (trx) => {
        await applyUserDeltas(trx, users);
        await applyTokenDeltas(trx, tokens);
        await applyChannelUsage(trx, channels);
      });
    } catch (error) {
      this.ctx.log.error({ err: error }, 'counter flush failed; will retry');
      for (const [id, d] of users) {
        const u = this.users.get(id) ?? { quota: 0, usedQuota: 0, requests: 0 };
        this.users.set(id, { quota: u.quota + d.quota, usedQuota: u.usedQuota + d.usedQuota, requests: u.requests + d.requests });
      }
      for (const [id, v] of tokens) this.tokens.set(id, (this.tokens.get(id) ?? 0) + v);
      for (const [id, v] of channels) this.channels.set(id, (this.channels.get(id) ?? 0) + v);
    }
    try {
      await writeLogsAndStats(db, logs, stats);
    } catch (error) {
      this.ctx.log.error({ err: error, rows: logs.length }, 'log flush failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
