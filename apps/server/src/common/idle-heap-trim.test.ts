import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trimHeapWhenIdle } from './idle-heap-trim.js';

describe('trimHeapWhenIdle', () => {
  afterEach(() => vi.useRealTimers());

  it('collects once after traffic stops, never while busy, and again after the next burst', () => {
    vi.useFakeTimers();
    const server = new EventEmitter() as unknown as Server;
    const gc = vi.fn();
    const stop = trimHeapWhenIdle(server, 1000, gc);
    vi.advanceTimersByTime(5000);
    expect(gc).not.toHaveBeenCalled(); // no traffic yet: nothing to give back
    for (let i = 0; i < 5; i++) {
      server.emit('request');
      vi.advanceTimersByTime(1000);
    }
    expect(gc).not.toHaveBeenCalled(); // a request in every interval: busy
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(1);
    server.emit('request');
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(2);
    stop();
    server.emit('request');
    vi.advanceTimersByTime(5000);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('exposes V8 collection at run time', () => {
    const server = new EventEmitter() as unknown as Server;
    expect(() => trimHeapWhenIdle(server, 1000)()).not.toThrow();
  });
});
