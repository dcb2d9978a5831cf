import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './worker-source.js';

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Worker threads, each with its own read-only connection to one SQLite file. A query goes to
 * the worker with the fewest waiting, so a 90-day aggregate on one does not hold back a log
 * page on the other; the relay's thread only posts the query and receives the rows.
 */
export class ReadWorkerPool {
  private slots: Slot[] = [];
  private seq = 0;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly size = 2,
  ) {}

  /** Starts workers until there are `size` of them (after a crash, only the missing ones). */
  private fill(): void {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    while (this.slots.length < this.size) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.path, module } });
      const slot: Slot = { worker, pending: new Map() };
      worker.on('message', (m: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const p = slot.pending.get(m.id);
        if (!p) return;
        slot.pending.delete(m.id);
        if (!slot.pending.size) worker.unref();
        if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
        else p.resolve(m.rows ?? []);
      });
      worker.on('error', (e) => this.fail(slot, e as Error));
      worker.on('exit', () => this.fail(slot, new Error('read worker stopped')));
      worker.unref();
      this.slots.push(slot);
    }
  }

  /** A worker died: its waiting queries fail, and a fresh one takes its place. */
  private fail(slot: Slot, error: Error): void {
    for (const p of slot.pending.values()) p.reject(error);
    slot.pending.clear();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  /** Runs one read statement on the least busy worker and answers its rows. */
  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('read workers are closed'));
    if (this.slots.length < this.size) this.fill();
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      // Referenced while a query waits (a script awaiting it must not exit), else idle.
      if (!slot.pending.size) slot.worker.ref();
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
