import { afterEach, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { SharedStore } from './shared-store.js';

const REDIS_URL = process.env.TEST_REDIS_CONN_STRING;

const log = { warn: () => undefined, info: () => undefined };

describe('SharedStore without Redis', () => {
  afterEach(() => vi.useRealTimers());

  it('counts a window from its first hit and starts a new one after it expires', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    const store = new SharedStore(log);
    expect(await store.incrWindow('w', 60)).toBe(1);
    vi.setSystemTime(1_030_000);
    expect(await store.incrWindow('w', 60)).toBe(2);
    expect(await store.incrWindow('w', 60)).toBe(3);
    expect(await store.get('w')).toBe('3');
    // The window ends 60 s after its first hit, not after its last.
    vi.setSystemTime(1_060_001);
    expect(await store.incrWindow('w', 60)).toBe(1);
  });

  it('gives a plain key counted as a window an expiry', async () => {
    vi.useFakeTimers({ now: 2_000_000, toFake: ['Date'] });
    const store = new SharedStore(log);
    await store.set('k', '5');
    expect(await store.incrWindow('k', 10)).toBe(6);
    vi.setSystemTime(2_010_001);
    expect(await store.get('k')).toBeNull();
  });
});

/** Takes from a counter of 5 as a refund does: never below zero, the window's expiry kept, a missing key left missing. */
async function takesFloor(store: SharedStore, prefix: string) {
  const key = `${prefix}floor`;
  await store.incrWindow(key, 60, 5);
  expect(await store.takeFloor(key, 3)).toBe(3);
  expect(await store.takeFloor(key, 5)).toBe(2);
  expect(await store.get(key)).toBe('0');
  expect(await store.takeFloor(key, 1)).toBe(0);
  expect(await store.takeFloor(`${prefix}missing`, 4)).toBe(0);
  expect(await store.get(`${prefix}missing`)).toBeNull();
  // Concurrent takers share what there is.
  await store.incrWindow(key, 60, 5);
  const taken = await Promise.all(Array.from({ length: 20 }, () => store.takeFloor(key, 1)));
  expect(taken.reduce((a, b) => a + b, 0)).toBe(5);
  expect(await store.get(key)).toBe('0');
}

describe('SharedStore.takeFloor', () => {
  afterEach(() => vi.useRealTimers());

  it('takes without Redis, keeping the window\'s expiry', async () => {
    vi.useFakeTimers({ now: 3_000_000, toFake: ['Date'] });
    const store = new SharedStore(log);
    await takesFloor(store, '');
    vi.setSystemTime(3_060_001);
    expect(await store.get('floor')).toBeNull();
  });

  it.skipIf(!REDIS_URL)('takes atomically on Redis, keeping the window\'s expiry', async () => {
    const prefix = `floor-test:${Date.now()}:`;
    const store = await SharedStore.open(log, REDIS_URL, prefix);
    const raw = new Redis(REDIS_URL!);
    try {
      await store.ready();
      await takesFloor(store, '');
      // In Redis itself, not a memory fallback.
      expect([await raw.get(`${prefix}floor`), (await raw.ttl(`${prefix}floor`)) > 0]).toEqual(['0', true]);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });
});

/** Three keys written in one call and read in one, with a key never written and one that expires. */
async function readsAndWritesMany(store: SharedStore) {
  await store.setMany([['many:a', '1'], ['many:b', '2']], 60);
  await store.setMany([['many:short', '3']], 1);
  expect(await store.getMany(['many:a', 'many:missing', 'many:b', 'many:short'])).toEqual(['1', null, '2', '3']);
  expect(await store.getMany([])).toEqual([]);
}

describe('SharedStore.getMany and setMany', () => {
  afterEach(() => vi.useRealTimers());

  it('without Redis: values in order, null for a missing or expired key', async () => {
    vi.useFakeTimers({ now: 4_000_000, toFake: ['Date'] });
    const store = new SharedStore(log);
    await readsAndWritesMany(store);
    vi.setSystemTime(4_001_001);
    expect(await store.getMany(['many:a', 'many:short'])).toEqual(['1', null]);
  });

  it.skipIf(!REDIS_URL)('on Redis: one MGET, and every key written with its expiry', async () => {
    const prefix = `many-test:${Date.now()}:`;
    const store = await SharedStore.open(log, REDIS_URL, prefix);
    const raw = new Redis(REDIS_URL!);
    try {
      await store.ready();
      await readsAndWritesMany(store);
      expect(await raw.get(`${prefix}many:b`)).toBe('2');
      expect(await raw.ttl(`${prefix}many:a`)).toBeGreaterThan(50);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });
});
