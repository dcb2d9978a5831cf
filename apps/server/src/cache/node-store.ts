// WORKERS > 1 without Redis: the primary keeps the node's key/value map and counters and passes
// each worker's publishes to the others, so the workers share what separate machines share
// through Redis. See docs/decisions/0110-workers-on-sqlite.md.
import cluster, { type Worker } from 'node:cluster';
import { MEMORY_OPS, MemoryStore, type MemoryOp } from './memory-store.js';

interface StoreAsk {
  oneHub: 'store';
  id: number;
  op: MemoryOp;
  args: unknown[];
}
interface StoreAnswer {
  oneHub: 'stored';
  id: number;
  value: unknown;
}
interface StorePublish {
  oneHub: 'publish';
  channel: string;
  message: string;
}

/** Set in a worker's environment when its primary serves the store. */
export const NODE_STORE_ENV = 'ONE_HUB_NODE_STORE';

/** In the primary: answers the workers' store operations from one map and fans their publishes out. */
export function serveNodeStore(workers: () => Iterable<Worker>): void {
  const memory = new MemoryStore();
  cluster.on('message', (worker, m: StoreAsk | StorePublish) => {
    if (m?.oneHub === 'store') {
      if (!MEMORY_OPS.has(m.op)) return;
      const value = (memory[m.op] as (...args: unknown[]) => unknown)(...m.args);
      if (worker.isConnected()) worker.send({ oneHub: 'stored', id: m.id, value: value ?? null } satisfies StoreAnswer);
    } else if (m?.oneHub === 'publish') {
      for (const other of workers()) if (other !== worker && other.isConnected()) other.send(m);
    }
  });
}

/** Whether this process is a worker whose primary serves the store. */
export const usesNodeStore = () => cluster.isWorker && process.env[NODE_STORE_ENV] === '1';

/** In a worker: the primary's map, over the cluster channel (one message each way per operation). */
export class NodeStoreClient {
  private asked = 0;
  private readonly waiting = new Map<number, (value: unknown) => void>();

  constructor(onPublish: (channel: string, message: string) => void) {
    process.on('message', (m: StoreAnswer | StorePublish) => {
      if (m?.oneHub === 'stored') {
        const settle = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        settle?.(m.value);
      } else if (m?.oneHub === 'publish') onPublish(m.channel, m.message);
    });
  }

  ask<T>(op: MemoryOp, args: unknown[]): Promise<T> {
    const id = ++this.asked;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (value: unknown) => void);
      process.send!({ oneHub: 'store', id, op, args } satisfies StoreAsk);
    });
  }

  publish(channel: string, message: string): void {
    process.send!({ oneHub: 'publish', channel, message } satisfies StorePublish);
  }
}
