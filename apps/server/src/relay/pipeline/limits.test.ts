import { describe, expect, it } from 'vitest';
import { NO_LIMITS, readLimits, readModelLimits, type RequestLimits } from '@one-hub/contract';
import { SharedStore } from '../../cache/shared-store.js';
import { HubError } from '../../common/errors.js';
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

  it('refuses once settled tokens reach the TPM limit, until the next minute', async () => {
    const { limits, clock } = book();
    const s = scope({ tpm: 100 });
    await limits.enter(s);
    await limits.enter(s); // admitted together: TPM counts what has settled
    await limits.settled(s, 60, 0);
    await limits.enter(s);
    await limits.settled(s, 60, 0);
    const e = await refusal(limits.enter(s));
    expect(e).toMatchObject({ code: 'tpm_limit_exceeded', retryAfter: 30 });
    expect(e.message).toContain('100 tokens per minute (TPM), 120 used');
    clock.now += 30_000;
    await limits.enter(s);
  });

  it('holds max in flight until a request leaves; a refused entry leaves no count behind', async () => {
    const { limits } = book();
    const s = [...scope({ max_inflight: 2 }), ...scope({ max_inflight: 1 }, 'u1', 'user')];
    await limits.enter(s);
    const e = await refusal(limits.enter(s));
    expect(e).toMatchObject({ code: 'inflight_limit_exceeded', retryAfter: 1 });
    expect(e.message).toContain('user limit reached: 1 concurrent requests');
    await limits.leave(s);
    await limits.enter(s);
    await limits.leave(s);
    // Leaving more often than entering (a faded count) never goes below zero.
    await limits.leave(s);
    await limits.enter(s);
    await refusal(limits.enter(s));
  });

  it('refuses after the daily spending cap until the next UTC day, and after the monthly cap until the next month', async () => {
    const { limits, clock } = book();
    const daily = scope({ daily_quota: 500 });
    await limits.enter(daily);
    await limits.settled(daily, 10, 499);
    await limits.enter(daily);
    await limits.settled(daily, 10, 1);
    const e = await refusal(limits.enter(daily));
    expect(e).toMatchObject({ code: 'daily_quota_exceeded', retryAfter: 30 });
    expect(e.message).toContain('daily spending cap 500 (quota), 500 spent today');

    const monthly = scope({ monthly_quota: 1000 }, 't2');
    await limits.settled(monthly, 0, 1000);
    expect(await refusal(limits.enter(monthly))).toMatchObject({ code: 'monthly_quota_exceeded', retryAfter: 30 });
    clock.now += 30_000; // 2026-04-01: a new day and a new month
    await limits.enter(daily);
    await limits.enter(monthly);
    await limits.settled(monthly, 0, 999);
    clock.now += 15 * 86_400_000; // the same month: still counted
    await limits.settled(monthly, 0, 1);
    expect(await refusal(limits.enter(monthly))).toMatchObject({ code: 'monthly_quota_exceeded', retryAfter: 15 * 86_400 });
  });
});
