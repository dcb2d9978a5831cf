import { describe, expect, it } from 'vitest';
import type { PublicGateway } from '@one-hub/contract';
import { discountBadge, planOffer, planSummary, topUpProblem, topUpSummary } from './topup-logic';

const gw = (over: Partial<PublicGateway> = {}): PublicGateway => ({ uuid: 'u', name: 'G', icon: '', fixed_fee: 0, percent_fee: 0, currency: 'USD', sort: 1, ...over });

describe('top-up checks (console-screens §3.8, in order)', () => {
  it.each([
    ['no gateway', '10', undefined, 1, 'needGateway'],
    ['empty amount', '', gw(), 1, 'belowMin'],
    ['zero', '0', gw(), 1, 'belowMin'],
    ['below the minimum', '4', gw(), 5, 'belowMin'],
    ['above a million', '1000001', gw(), 1, 'aboveMax'],
    ['not whole', '10.5', gw(), 1, 'notWhole'],
    ['fine', '10', gw(), 5, null],
    ['minimum 0 still means at least 1', '1', gw(), 0, null],
  ] as const)('%s', (_n, amount, gateway, min, key) => {
    expect(topUpProblem(amount, gateway, min)?.key ?? null).toBe(key);
  });
  it('says the minimum it applied', () => {
    expect(topUpProblem('2', gw(), 5)).toEqual({ key: 'belowMin', min: 5 });
  });
});

describe('top-up summary', () => {
  it('prices a CNY gateway with a percent fee as the server does', () => {
    expect(topUpSummary(10, 0.9, gw({ currency: 'CNY', percent_fee: 0.05 }), 7.2)).toMatchObject({ discounted: 9, fee: 0.45, feeKind: 'percent', pay: 68.04, cny: true });
  });
  it('prices a USD gateway with a fixed fee', () => {
    expect(topUpSummary(100, 0.8, gw({ fixed_fee: 0.5 }), 7.2)).toMatchObject({ discounted: 80, fee: 0.5, feeKind: 'fixed', pay: 80.5, cny: false });
  });
});

describe('discount badge', () => {
  it('shows N折 and percent off only for a real discount', () => {
    expect(discountBadge(0.9)).toEqual({ zhe: '9', off: 10 });
    expect(discountBadge(0.85)).toEqual({ zhe: '8.5', off: 15 });
    expect(discountBadge(1)).toBeNull();
    expect(discountBadge(0)).toBeNull();
  });
});

describe('plan offers', () => {
  const sub = (plan_id: number, status: 'active' | 'pending' | 'expired' | 'cancelled', end_at: number) => ({ plan_id, status, end_at });
  it('offers Buy without a running subscription of the plan', () => {
    expect(planOffer({ id: 1, renews: true }, [])).toEqual({ kind: 'buy' });
    expect(planOffer({ id: 1, renews: true }, [sub(1, 'expired', 100), sub(1, 'cancelled', 200), sub(2, 'active', 300)])).toEqual({ kind: 'buy' });
  });
  it('offers Renew while a renewing plan runs or waits, until its last period ends', () => {
    expect(planOffer({ id: 1, renews: true }, [sub(1, 'active', 100)])).toEqual({ kind: 'renew', until: 100 });
    expect(planOffer({ id: 1, renews: true }, [sub(1, 'active', 100), sub(1, 'pending', 250)])).toEqual({ kind: 'renew', until: 250 });
  });
  it('offers neither while a plan that does not renew is held', () => {
    expect(planOffer({ id: 1, renews: false }, [sub(1, 'active', 100)])).toEqual({ kind: 'held', until: 100 });
  });
  it('bills a plan in the gateway currency with its fee, as the server orders it', () => {
    expect(planSummary({ price: 12.5, currency: 'USD' }, gw({ percent_fee: 0.03 }), 7.3)).toMatchObject({ fee: 0.38, feeKind: 'percent', pay: 12.88 });
    expect(planSummary({ price: 10, currency: 'USD' }, gw({ currency: 'CNY', fixed_fee: 1 }), 7)).toMatchObject({ fee: 1, feeKind: 'fixed', pay: 77 });
  });
});
