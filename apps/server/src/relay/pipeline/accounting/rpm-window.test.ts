import { describe, expect, it } from 'vitest';
import { RpmWindows } from './rpm-window.js';

/** A shared window counter like the store's, counting the round trips made to it. */
function sharedCounter() {
  const counts = new Map<string, number>();
  const store = {
    trips: 0,
    async incrWindow(key: string, _seconds: number, by = 1) {
      store.trips++;
      await Promise.resolve();
      const n = (counts.get(key) ?? 0) + by;
      counts.set(key, n);
      return n;
    },
    count: (key: string) => counts.get(key) ?? 0,
    get: async (key: string) => (counts.has(key) ? String(counts.get(key)) : null),
  };
  return store;
}

const minute = 29_000_000; // a fixed minute, so no test straddles a window boundary
const clock = () => minute * 60_000 + 1_000;

describe('per-user requests per minute', () => {
  it('admits exactly the limit on one node, in any order of concurrent callers', async () => {
    const store = sharedCounter();
    const rpm = new RpmWindows(store, clock);
    const answers = await Promise.all(Array.from({ length: 250 }, () => rpm.admit(7, 100)));
    expect(answers.filter(Boolean)).toHaveLength(100);
    expect(store.count(`relay-rpm:7:${minute}`)).toBe(100);
  });

  it('costs a store round trip every few hundred requests for a busy user, not one per request', async () => {
    const store = sharedCounter();
    const rpm = new RpmWindows(store, clock);
    for (let i = 0; i < 5_000; i++) expect(await rpm.admit(1, 1_000_000)).toBe(true);
    expect(store.trips).toBeLessThan(30);
  });

  it('never lets two nodes together pass the limit, and leaves nothing stranded once both are refused', async () => {
    const store = sharedCounter();
    const a = new RpmWindows(store, clock);
    const b = new RpmWindows(store, clock);
    let admitted = 0;
    for (let i = 0; i < 400; i++) {
      const results = await Promise.all([a.admit(3, 200), b.admit(3, 200), a.admit(3, 200)]);
      admitted += results.filter(Boolean).length;
    }
    expect(admitted).toBe(200);
    expect(store.count(`relay-rpm:3:${minute}`)).toBe(200);
  });

  it('counts for the dashboard only the requests admitted, not the admissions taken ahead', async () => {
    const store = sharedCounter();
    const rpm = new RpmWindows(store, clock);
    for (let i = 0; i < 5; i++) await rpm.admit(4, 600); // one take of 600 / 20 from the shared count
    expect(store.count(`relay-rpm:4:${minute}`)).toBe(30);
    expect(await rpm.count(4)).toBe(5);
    expect(await rpm.count(5)).toBe(0);
  });

  it('costs a user with a little traffic one round trip a minute, the first request of the minute included', async () => {
    const store = sharedCounter();
    const rpm = new RpmWindows(store, clock);
    for (let i = 0; i < 24; i++) expect(await rpm.admit(11, 1_000_000)).toBe(true);
    expect(store.trips).toBe(1);
  });

  it('spreads the users\' minutes over the clock\'s when phased: user n\'s window starts n % 60 seconds later, one fixed minute on every node', async () => {
    const store = sharedCounter();
    let now = minute * 60_000 + 10_500; // 10.5 s into the clock's minute
    const a = new RpmWindows(store, () => now, true);
    const b = new RpmWindows(store, () => now, true);
    expect(a.minuteOf(10)).toBe(minute); // its window began 0.5 s ago
    expect(a.minuteOf(11)).toBe(minute - 1); // its window begins in 0.5 s
    expect(await a.admit(11, 1)).toBe(true);
    expect(await b.admit(11, 1)).toBe(false); // the same window on the other node
    now += 1_000; // user 11's next window began; user 10's did not
    expect(await b.admit(11, 1)).toBe(true);
    expect(await a.admit(10, 1)).toBe(true);
    expect(await b.admit(10, 1)).toBe(false);
    expect(new RpmWindows(store, () => now).minuteOf(11)).toBe(minute); // unphased: the clock's minute
  });

  it('starts counting afresh in the next minute', async () => {
    const store = sharedCounter();
    let now = clock();
    const rpm = new RpmWindows(store, () => now);
    expect(await rpm.admit(9, 1)).toBe(true);
    expect(await rpm.admit(9, 1)).toBe(false);
    now += 60_000;
    expect(await rpm.admit(9, 1)).toBe(true);
  });
});
