import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { Poller, type RoundResult } from './poller.js';

const ctxFor = (nodeType: 'master' | 'slave') =>
  ({ config: { NODE_TYPE: nodeType, TASK_POLL_INTERVAL_MS: 1000 }, log: { warn: vi.fn() } }) as unknown as AppContext;

/** A round that answers the given pending counts in turn (an Error throws). */
function rounds(results: Array<number | Error>) {
  const calls: number[] = [];
  const round = async (): Promise<RoundResult> => {
    const next = results.shift() ?? 0;
    calls.push(Date.now());
    if (next instanceof Error) throw next;
    return { pending: next, tasks: next, upstreamCalls: next ? 1 : 0 };
  };
  return { round, calls };
}

afterEach(() => vi.useRealTimers());

describe('task poller', () => {
  it('runs at start-up, repeats while tasks are pending, survives a failed round, then sleeps until woken', async () => {
    vi.useFakeTimers();
    const ctx = ctxFor('master');
    const r = rounds([2, new Error('upstream down'), 1, 0]);
    const p = new Poller(ctx, 'test', r.round);
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.calls).toHaveLength(2);
    expect(ctx.log.warn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(r.calls).toHaveLength(4);
    // Nothing pending: asleep, however long it waits.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.calls).toHaveLength(4);
    p.wake();
    p.wake(); // a second wake before the round does not add one
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.calls).toHaveLength(5);
    expect(p.rounds).toBe(4);
    await p.close();
  });

  it('never polls on a slave node', async () => {
    vi.useFakeTimers();
    const r = rounds([5]);
    const p = new Poller(ctxFor('slave'), 'test', r.round);
    p.start();
    p.wake();
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.calls).toHaveLength(0);
  });
});
