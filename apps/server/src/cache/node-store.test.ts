import { describe, expect, it } from 'vitest';
import cluster, { type Worker } from 'node:cluster';
import { serveNodeStore } from './node-store.js';

/** A stand-in for a cluster worker: what the primary sends it is kept. */
const fakeWorker = () => {
  const sent: unknown[] = [];
  return { sent, worker: { isConnected: () => true, send: (m: unknown) => sent.push(m) } as unknown as Worker };
};

describe('the primary’s store (WORKERS without Redis)', () => {
  const a = fakeWorker();
  const b = fakeWorker();
  const c = fakeWorker();
  serveNodeStore(() => [a.worker, b.worker, c.worker]);
  const ask = (from: ReturnType<typeof fakeWorker>, id: number, op: string, args: unknown[]) => {
    cluster.emit('message', from.worker, { oneHub: 'store', id, op, args });
    return (from.sent.at(-1) as { id: number; value: unknown });
  };

  it('answers every worker from one map: a counter one worker adds to, another reads', () => {
    expect(ask(a, 1, 'incrBy', ['k', 5, 60])).toEqual({ oneHub: 'stored', id: 1, value: 5 });
    expect(ask(b, 7, 'incrBy', ['k', 2, 60])).toEqual({ oneHub: 'stored', id: 7, value: 7 });
    expect(ask(c, 2, 'takeFloor', ['k', 10]).value).toBe(7);
    expect(ask(a, 3, 'get', ['k']).value).toBe('0');
    expect(ask(b, 8, 'setIfAbsent', ['once', 'b', 60]).value).toBe(true);
    expect(ask(a, 4, 'setIfAbsent', ['once', 'a', 60]).value).toBe(false);
    expect(ask(c, 3, 'get', ['missing']).value).toBeNull();
  });

  it('passes a publish to every other worker, not back to its sender', () => {
    const before = [a.sent.length, b.sent.length, c.sent.length];
    const notice = { oneHub: 'publish', channel: 'token', message: '42' };
    cluster.emit('message', b.worker, notice);
    expect(a.sent.slice(before[0])).toEqual([notice]);
    expect(b.sent.length).toBe(before[1]);
    expect(c.sent.slice(before[2])).toEqual([notice]);
  });

  it('ignores an operation it does not know', () => {
    const before = a.sent.length;
    cluster.emit('message', a.worker, { oneHub: 'store', id: 9, op: 'close', args: [] });
    expect(a.sent.length).toBe(before);
  });
});
