import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { randomHex } from '../common/random.js';
import { MemoryStore, type MemoryOp } from './memory-store.js';
import { NodeStoreClient, usesNodeStore } from './node-store.js';

/** `takeFloor` on Redis: GET and DECRBY in one step. */
const TAKE_FLOOR = `
local value = tonumber(redis.call('GET', KEYS[1]) or '0')
local taken = math.min(value, tonumber(ARGV[1]))
if taken <= 0 then return 0 end
redis.call('DECRBY', KEYS[1], taken)
return taken`;

/** A handler may return a promise: a local publish waits for it (so a writer sees its own change applied). */
type Handler = (message: string) => void | Promise<void>;

/** Redis connection states in which commands and subscriptions work. */
const READY = 'ready';
/** Notices kept per channel during an outage; a channel's handlers reload what they cover, so a few suffice. */
const MAX_UNSENT = 1000;

/**
 * Key/value, counters and pub/sub shared by all nodes when Redis is configured,
 * process-local otherwise. A Redis failure never fails a request: the store
 * falls back to its memory copy and logs a warning (once per outage). While either
 * connection is down the store is `degraded` (other nodes' change notices may be
 * missed); `onRecover` handlers run when both are up again.
 */
export class SharedStore {
  private readonly memory = new MemoryStore();
  /** The primary's map and fan-out, in a worker of several without Redis. */
  private readonly node = usesNodeStore() ? new NodeStoreClient((channel, message) => void this.dispatch(channel, message, true)) : undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private redis?: Redis;
  private subscriber?: Redis;
  /** Set by a failed command or connection error; commands skip Redis until it is ready again. */
  private failing = false;
  /** Whether the last health check found the store degraded (for the recovery edge). */
  private wasDegraded = false;
  private readonly recoverHandlers: Array<() => void | Promise<void>> = [];
  /** Change notices other nodes have not heard (published while Redis was unreachable), by channel. */
  private readonly unsent = new Map<string, Set<string>>();
  private lastRefusedWarn = 0;
  /** Identifies this store in pub/sub so it skips its own echoes. */
  private readonly nodeId = randomHex(6);

  /** Connects to Redis when a URL is given; the client library is loaded only then. */
  static async open(log: Pick<FastifyBaseLogger, 'warn' | 'info'>, redisUrl?: string, prefix = ''): Promise<SharedStore> {
    if (!redisUrl) return new SharedStore(log, undefined, prefix);
    const { Redis: Client } = await import('ioredis');
    const opts = { maxRetriesPerRequest: 1, enableOfflineQueue: false, keyPrefix: prefix } as const;
    return new SharedStore(log, { redis: new Client(redisUrl, opts), subscriber: new Client(redisUrl, { lazyConnect: false }) }, prefix);
  }

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    clients?: { redis: Redis; subscriber: Redis },
    private readonly prefix = '',
  ) {
    if (clients) {
      this.redis = clients.redis;
      this.subscriber = clients.subscriber;
      this.redis.on('error', (e) => this.markDegraded(e));
      // A broken subscription leaves commands working: only notices are missed.
      this.subscriber.on('error', (e) => this.markDegraded(e, false));
      for (const c of [this.redis, this.subscriber]) c.on('close', () => (this.wasDegraded = true));
      this.redis.on('ready', () => {
        this.failing = false;
        this.checkRecovered();
      });
      this.subscriber.on('ready', () => this.checkRecovered());
      this.wasDegraded = true; // not connected yet
      this.subscriber.on('message', (channel, message) => void this.dispatch(channel.slice(prefix.length), message));
    }
  }

  /** Waits (bounded) until both Redis connections are up, so early publishes are not missed. */
  async ready(timeoutMs = 3000): Promise<void> {
    const conns = [this.redis, this.subscriber].filter((c): c is Redis => c !== undefined);
    const waits = conns.map((c) =>
      c.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => c.once('ready', () => resolve())),
    );
    await Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  get usesRedis(): boolean {
    return this.redis !== undefined;
  }

  /**
   * True while Redis is configured but a connection (commands or subscriptions) is not up, or a
   * command just failed: this node may miss other nodes' change notices. Cheap (read per request).
   */
  get degraded(): boolean {
    if (!this.redis) return false;
    return this.failing || this.redis.status !== READY || this.subscriber!.status !== READY;
  }

  /** Runs `handler` each time the store comes back after being degraded (change notices may have been missed). */
  onRecover(handler: () => void | Promise<void>): void {
    this.recoverHandlers.push(handler);
  }

  private checkRecovered(): void {
    if (!this.wasDegraded || this.degraded) return;
    this.wasDegraded = false;
    this.log.info('redis reachable');
    void this.sendUnsent();
    for (const h of this.recoverHandlers) {
      void Promise.resolve()
        .then(h)
        .catch((e) => this.log.warn({ err: e }, 'recovery handler failed'));
    }
  }

  private warnRefused(error: unknown): void {
    if (Date.now() - this.lastRefusedWarn < 60_000) return;
    this.lastRefusedWarn = Date.now();
    this.log.warn({ err: error }, 'redis refused a command, using the in-memory fallback for it');
  }

  private markDegraded(error: unknown, commands = true): void {
    if (!this.wasDegraded || (commands && !this.failing)) this.log.warn({ err: error }, 'redis unavailable, using in-memory fallback');
    if (commands) this.failing = true;
    this.wasDegraded = true;
  }

  private tryRedis<T>(op: (r: Redis) => Promise<T>, fallback: () => T): Promise<T> {
    // Without Redis no async function runs: the relay asks the store on every request.
    if (!this.redis || this.failing) {
      try {
        return Promise.resolve(fallback());
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return this.viaRedis(this.redis, op, fallback);
  }

  private async viaRedis<T>(redis: Redis, op: (r: Redis) => Promise<T>, fallback: () => T): Promise<T> {
    try {
      return await op(redis);
    } catch (e) {
      // A command the server refused (a key of another type, a script error) says nothing about
      // the connection: only this one falls back, the store stays on Redis.
      if ((e as Error)?.name === 'ReplyError' && redis.status === READY) this.warnRefused(e);
      else this.markDegraded(e);
      return fallback();
    }
  }

  /** One store operation: on Redis when configured, else on the primary's map (WORKERS without Redis), else here. */
  private run<K extends MemoryOp>(op: K, args: Parameters<MemoryStore[K]>, viaRedis: (r: Redis) => Promise<ReturnType<MemoryStore[K]>>): Promise<ReturnType<MemoryStore[K]>> {
    if (this.node) return this.node.ask(op, args);
    return this.tryRedis(viaRedis, () => (this.memory[op] as (...a: unknown[]) => ReturnType<MemoryStore[K]>)(...args));
  }

  get(key: string): Promise<string | null> {
    return this.run('get', [key], (r) => r.get(key));
  }

  set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    return this.run('set', [key, value, ttlSeconds], async (r) => {
      if (ttlSeconds) await r.set(key, value, 'EX', ttlSeconds);
      else await r.set(key, value);
    });
  }

  /** Several keys in one read (Redis `MGET`); a missing or expired key answers null in its place. */
  getMany(keys: string[]): Promise<Array<string | null>> {
    if (!keys.length) return Promise.resolve([]);
    return this.run('getMany', [keys], (r) => r.mget(...keys));
  }

  /** Several keys with one expiry in one round trip (a Redis transaction of `SET … EX`). */
  setMany(entries: Array<[key: string, value: string]>, ttlSeconds: number): Promise<void> {
    if (!entries.length) return Promise.resolve();
    return this.run('setMany', [entries, ttlSeconds], async (r) => {
      const tx = r.multi();
      for (const [k, v] of entries) tx.set(k, v, 'EX', ttlSeconds);
      await tx.exec();
    });
  }

  del(key: string): Promise<void> {
    return this.run('del', [key], async (r) => void (await r.del(key)));
  }

  /** Adds `by` (default one) to a counter that lives `windowSeconds` from its first hit; answers the new count. */
  incrWindow(key: string, windowSeconds: number, by = 1): Promise<number> {
    return this.run('incrWindow', [key, windowSeconds, by], async (r) => {
      const [[, count]] = (await r.multi().incrby(key, by).expire(key, windowSeconds, 'NX').exec()) as [[unknown, number]];
      return count;
    });
  }

  /** Adds `delta` (may be negative) to a counter that expires `ttlSeconds` after its last change; answers the new value. */
  incrBy(key: string, delta: number, ttlSeconds: number): Promise<number> {
    return this.run('incrBy', [key, delta, ttlSeconds], async (r) => {
      const [[, value]] = (await r.multi().incrby(key, delta).expire(key, ttlSeconds).exec()) as [[unknown, number]];
      return value;
    });
  }

  /**
   * Takes up to `by` off an existing counter, never below zero, keeping its expiry (one script on
   * Redis, so concurrent takers cannot pass zero); a missing key stays missing. Answers what it took.
   */
  takeFloor(key: string, by: number): Promise<number> {
    return this.run('takeFloor', [key, by], async (r) => Number(await r.eval(TAKE_FLOOR, 1, key, by)));
  }

  /** Sets the value only when the key does not exist (Redis `SET NX`); answers whether it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.run('setIfAbsent', [key, value, ttlSeconds], async (r) => (await r.set(key, value, 'EX', ttlSeconds, 'NX')) === 'OK');
  }

  /**
   * Delivers to this node's handlers at once and to other nodes through Redis; a notice Redis
   * could not take is kept (deduplicated, bounded) and sent when the store recovers.
   */
  async publish(channel: string, message: string): Promise<void> {
    await this.dispatch(channel, message, true);
    this.node?.publish(channel, message);
    if (!this.redis) return;
    const sent = await this.tryRedis(
      async (r) => {
        await r.publish(this.prefix + channel, `${this.nodeId}:${message}`);
        return true;
      },
      () => false,
    );
    if (!sent) this.keepUnsent(channel, message);
  }

  private keepUnsent(channel: string, message: string): void {
    let set = this.unsent.get(channel);
    if (!set) this.unsent.set(channel, (set = new Set()));
    if (set.size < MAX_UNSENT) set.add(message);
  }

  /** Sends the notices kept during an outage; what still fails is kept for the next recovery. */
  private async sendUnsent(): Promise<void> {
    const kept = [...this.unsent].flatMap(([channel, set]) => [...set].map((message) => [channel, message] as const));
    this.unsent.clear();
    for (const [channel, message] of kept) {
      try {
        await this.redis!.publish(this.prefix + channel, `${this.nodeId}:${message}`);
      } catch {
        this.keepUnsent(channel, message);
      }
    }
  }

  subscribe(channel: string, handler: Handler): void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.subscriber?.subscribe(this.prefix + channel).catch((e) => this.markDegraded(e, false));
    }
    set.add(handler);
  }

  private async dispatch(channel: string, raw: string, local = false): Promise<void> {
    let message = raw;
    if (!local) {
      const sep = raw.indexOf(':');
      if (raw.slice(0, sep) === this.nodeId) return; // already applied locally
      message = raw.slice(sep + 1);
    }
    const runs = [...(this.handlers.get(channel) ?? [])].map(async (h) => h(message));
    for (const r of await Promise.allSettled(runs)) {
      if (r.status === 'rejected') this.log.warn({ err: r.reason, channel }, 'change handler failed');
    }
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.redis?.disconnect();
  }
}
