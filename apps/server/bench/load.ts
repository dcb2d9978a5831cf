import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Target {
  /** Several origins (gateway nodes behind one load generator): connections are dealt round-robin across them. */
  origin: string | string[];
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Caller keys dealt round-robin, one per request (`authorization: Bearer <key>`), for many users' load. */
  keys?: string[];
}

/** One target under closed-loop load: `concurrency` workers send back-to-back requests over kept-alive connections. */
export class Loader {
  private readonly pools: Pool[];
  private readonly latencies: number[] = [];
  private errors = 0;
  private busySeconds = 0;
  /** The next of the target's keys (it goes on across runs, so every key is used in turn). */
  private next = 0;

  constructor(
    readonly target: Target,
    private readonly concurrency: number,
  ) {
    const origins = Array.isArray(target.origin) ? target.origin : [target.origin];
    const each = Math.ceil(concurrency / origins.length);
    this.pools = origins.map((o) => new Pool(o, { connections: each, pipelining: 1, keepAliveTimeout: 30_000 }));
  }

  /** Loads the target for `seconds`, and on until `atLeast` requests were sent; results add up over calls. */
  async run(seconds: number, atLeast = 0): Promise<void> {
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const { path, headers, body } = this.target;
    const perKey = this.target.keys?.map((key) => ({ ...headers, authorization: `Bearer ${key}` }));
    let sent = 0;
    const worker = async (_worker: unknown, k: number) => {
      const pool = this.pools[k % this.pools.length];
      while (performance.now() < deadline || sent < atLeast) {
        sent++;
        const t0 = performance.now();
        try {
          const res = await pool.request({ method: 'POST', path, headers: perKey ? perKey[this.next++ % perKey.length] : headers, body });
          for await (const _ of res.body) void _; // read the whole answer, streamed or not
          if (res.statusCode !== 200) this.errors++;
          else this.latencies.push(performance.now() - t0);
        } catch {
          this.errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
    this.busySeconds += (performance.now() - started) / 1000;
  }

  async close(): Promise<LoadResult> {
    await Promise.all(this.pools.map((p) => p.close()));
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const seconds = this.busySeconds;
    return { requests: sorted.length, errors: this.errors, seconds, rps: sorted.length / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}
