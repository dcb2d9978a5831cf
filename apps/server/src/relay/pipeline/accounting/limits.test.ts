import { describe, expect, it, vi } from 'vitest';
import { NO_LIMITS, readLimits, readModelLimits, type RequestLimits } from '@one-hub/contract';
import { SharedStore } from '../../../cache/shared-store.js';
import { HubError } from '../../../common/errors.js';
import { LimitBook, limitScopes, type LimitScope } from './limits.js';

const log = { warn: () => undefined, info: () => undefined };
// 2026-03-31 23:59:30 UTC: 30 s to the next minute, day and month.
const T = Date.UTC(2026, 2, 31, 23, 59, 30);

function book() {
  const clock = { now: T };
  const limits = new LimitBook(new SharedStore(log), () => clock.now);
  return { limits, clock };
}

const scope = (l: Partial<RequestLimits>, name = 't1', label = 'token'): LimitScope[] => [{ name, label, limits: { ...NO_LIMITS, ...l } }];

async function refusal(p: Promise<unknown>): Promise<HubError> {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(HubError);
  return error as HubError;
}

describe('request limits', () => {
  it('applies no scope when nothing is set, and orders token → model in group → user', () => {
    expect(limitScopes({ id: 1 }, { id: 2 }, 'default', 'm', undefined)).toEqual([]);
    expect(limitScopes({ id: 1, limits: NO_LIMITS }, { id: 2, limits: NO_LIMITS }, 'default', 'm', { other: { ...NO_LIMITS, rpm: 1 } })).toEqual([]);
    const scopes = limitScopes({ id: 1, limits: { ...NO_LIMITS, rpm: 5 } }, { id: 2, limits: { ...NO_LIMITS, tpm: 9 } }, 'vip', 'm', { m: { ...NO_LIMITS, max_inflight: 2 } });
    expect(scopes.map((s) => [s.name, s.label])).toEqual([['t1', 'token'], ['m2:vip:m', 'model m in group vip'], ['u2', 'user']]);
  });

  it('reads stored limits leniently: unreadable or all-zero text is no limit', () => {
    expect(readLimits(null)).toBeUndefined();
    expect(readLimits('{not json')).toBeUndefined();
    expect(readLimits('{"rpm":0}')).toBeUndefined();
    expect(readLimits('{"rpm":3}')).toEqual({ ...NO_LIMITS, rpm: 3 });
    expect(readModelLimits('{"a":{"tpm":5},"b":{}}')).toEqual({ a: { ...NO_LIMITS, tpm: 5 } });
  });

  it('refuses the request after the RPM limit with the seconds to the next minute, and admits it in the next minute', async () => {
    const { limits, clock } = book();
    const s = scope({ rpm: 2 });
    await limits.enter(s);
    await limits.enter(s);
    const e = await refusal(limits.enter(s));
    expect(e).toMatchObject({ status: 429, code: 'rpm_limit_exceeded', retryAfter: 30 });
    expect(e.message).toContain('token limit reached: 2 requests per minute (RPM)');
    clock.now += 30_000;
    await limits.enter(s);
  });

  it('reserves the worst case against the TPM at admission: a second request waits until the first settles', async () => {
    const { limits, clock } = book();
    const s = scope({ tpm: 100 });
    const first = await limits.enter(s, { tokens: 80, quota: 0 });
    const small = await limits.enter(s, { tokens: 30, quota: 0 }); // 80 held before it: below 100
    await refusal(limits.enter(s, { tokens: 1, quota: 0 })); // 110 held
    await limits.leave(small); // failed: its 30 go back
    await limits.settled(first, 30, 0); // it used 30 of the 80
    const second = await limits.enter(s, { tokens: 30, quota: 0 });
    await limits.settled(second, 70, 0); // 100 used
    const refused = await refusal(limits.enter(s, { tokens: 1, quota: 0 }));
    expect(refused).toMatchObject({ code: 'tpm_limit_exceeded', retryAfter: 30 });
    expect(refused.message).toContain('100 tokens per minute (TPM), 100 used or held');
    clock.now += 30_000;
    await limits.enter(s, { tokens: 1, quota: 0 });
  });

  it('N concurrent admissions against a spending cap: only those the cap covers before them get in, and failures give back', async () => {
    const { limits } = book();
    const s = scope({ daily_quota: 1000 });
    const tries = await Promise.all(Array.from({ length: 20 }, () => limits.enter(s, { tokens: 0, quota: 300 }).then((h) => h, () => null)));
    const admitted = tries.filter((h) => h !== null);
    // 0, 300, 600 and 900 held before them are below 1000: four get in, the sixteen others are refused.
    expect(admitted).toHaveLength(4);
    // Three fail (their holds go back), one settles at 250: 250 spent, so three more fit (250, 550, 850).
    for (const h of admitted.slice(0, 3)) await limits.leave(h!);
    await limits.settled(admitted[3]!, 0, 250);
    await limits.leave(admitted[3]!); // after settling, leaving gives nothing back twice
    const again = await Promise.all(Array.from({ length: 10 }, () => limits.enter(s, { tokens: 0, quota: 300 }).then(() => 1, () => 0)));
    expect(again.reduce((a: number, b: number) => a + b, 0)).toBe(3);
  });

  it('holds max in flight until a request leaves; a refused entry leaves no count behind', async () => {
    const { limits } = book();
    const s = [...scope({ max_inflight: 2 }), ...scope({ max_inflight: 1 }, 'u1', 'user')];
    const h = await limits.enter(s);
    const e = await refusal(limits.enter(s));
    expect(e).toMatchObject({ code: 'inflight_limit_exceeded', retryAfter: 1 });
    expect(e.message).toContain('user limit reached: 1 concurrent requests');
    await limits.leave(h);
    const h2 = await limits.enter(s);
    await limits.leave(h2);
    // Leaving more often than entering (a faded count) never goes below zero.
    await limits.leave(h2);
    await limits.enter(s);
    await refusal(limits.enter(s));
  });

  it('refuses after the daily spending cap until the next UTC day, and after the monthly cap until the next month', async () => {
    const { limits, clock } = book();
    const daily = scope({ daily_quota: 500 });
    await limits.settled(await limits.enter(daily), 10, 499);
    await limits.settled(await limits.enter(daily), 10, 1);
    const e = await refusal(limits.enter(daily));
    expect(e).toMatchObject({ code: 'daily_quota_exceeded', retryAfter: 30 });
    expect(e.message).toContain('daily spending cap 500 (quota), 500 spent or held today');

    const monthly = scope({ monthly_quota: 1000 }, 't2');
    await limits.settled(await limits.enter(monthly), 0, 1000);
    expect(await refusal(limits.enter(monthly))).toMatchObject({ code: 'monthly_quota_exceeded', retryAfter: 30 });
    clock.now += 30_000; // 2026-04-01: a new day and a new month
    await limits.enter(daily);
    await limits.settled(await limits.enter(monthly), 0, 999);
    clock.now += 15 * 86_400_000; // the same month: still counted
    await limits.settled(await limits.enter(monthly), 0, 1);
    expect(await refusal(limits.enter(monthly))).toMatchObject({ code: 'monthly_quota_exceeded', retryAfter: 15 * 86_400 });
  });

  it('reserves more calls of an entered session without counting RPM or in-flight, refusing while a window holds its limit', async () => {
    const { limits } = book();
    const s = scope({ rpm: 1, max_inflight: 1, tpm: 100, daily_quota: 50 });
    await limits.enter(s); // the session: its one request and in-flight slot
    const first = await limits.reserveMore(s, { tokens: 100, quota: 10 });
    // The first call's worst case fills the TPM window until it settles.
    expect(await refusal(limits.reserveMore(s, { tokens: 1, quota: 1 }))).toMatchObject({ code: 'tpm_limit_exceeded', retryAfter: 30 });
    await limits.settled(first, 60, 20);
    const second = await limits.reserveMore(s, { tokens: 100, quota: 40 }); // 60 tokens and 20 spent: below both limits
    await limits.release(second); // ended unsettled: nothing of it stays
    await limits.settled(await limits.reserveMore(s, { tokens: 10, quota: 10 }), 10, 30);
    expect((await refusal(limits.reserveMore(s, { tokens: 1, quota: 1 }))).message).toContain('daily spending cap 50 (quota), 50 spent or held today');
  });

  it('keeps a long call\'s in-flight count past the fade while it renews it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { limits } = book();
      const s = scope({ max_inflight: 1 });
      const session = await limits.enter(s);
      vi.advanceTimersByTime(600_000);
      await limits.renewInflight(session);
      vi.advanceTimersByTime(600_000); // 20 min after entering, 10 after the renewal
      expect((await refusal(limits.enter(s))).code).toBe('inflight_limit_exceeded');
      vi.advanceTimersByTime(1_000_000); // not renewed: faded, as a crashed node's count does
      await limits.enter(s);
    } finally {
      vi.useRealTimers();
    }
  });
  it('takes refunded spend back out of the windows it was counted in while they are current, never below zero', async () => {
    const clock = { now: T };
    const store = new SharedStore(log);
    const limits = new LimitBook(store, () => clock.now);
    const capped = scope({ daily_quota: 100, monthly_quota: 1_000, tpm: 50 });
    const hold = await limits.enter(capped);
    await limits.settled(hold, 0, 100);
    const keys = LimitBook.spendKeys(hold);
    expect(keys).toEqual([`relay-spend-d:t1:${Math.floor(T / 86_400_000)}`, `relay-spend-m:t1:${2026 * 12 + 2}`]);
    await refusal(limits.enter(capped));
    expect(limits.currentSpendKeys(keys)).toEqual(keys);
    await limits.refundSpend(keys, 60);
    await limits.refundSpend(keys, 60);
    expect([await store.get(keys[0]), await store.get(keys[1])]).toEqual(['0', '0']);
    await limits.settled(await limits.enter(capped), 0, 100);
    // 30 s later it is another day and another month: nothing counted at T is current.
    clock.now = T + 30_000;
    expect(limits.currentSpendKeys(keys)).toEqual([]);
    expect(limits.currentSpendKeys([...keys, `relay-spend-d:t1:${Math.floor(clock.now / 86_400_000)}`])).toEqual([`relay-spend-d:t1:${Math.floor(clock.now / 86_400_000)}`]);
  });
});
