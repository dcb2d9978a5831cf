import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedStore } from './shared-store.js';

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
