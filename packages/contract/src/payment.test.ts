import { describe, expect, it } from 'vitest';
import { parseRechargeDiscount, quoteOrder, quotePlan, rechargePresets, round2, UpdatePaymentBody, PaymentBody, CreateOrderBody } from './payment.js';

const base = { amount: 10, discount: 1, fixedFee: 0, percentFee: 0, currency: 'USD', usdRate: 7.3 };

describe('quoteOrder (api.md §23.2 step 4)', () => {
  it.each([
    // [case, input overrides, expected]
    ['no discount, no fee, USD', {}, { discounted: 10, fee: 0, feeKind: 'none', total: 10, pay: 10, saved: 0 }],
    ['no fee, CNY at 7.3', { currency: 'CNY' }, { total: 10, pay: 73, saved: 0 }],
    ['discount 0.9, USD', { discount: 0.9 }, { discounted: 9, total: 9, pay: 9, saved: 1 }],
    ['discount 0.9 and 5 % fee, CNY at 7.2', { discount: 0.9, percentFee: 0.05, currency: 'CNY', usdRate: 7.2 }, { discounted: 9, fee: 0.45, feeKind: 'percent', total: 9.45, pay: 68.04, saved: 7.56 }],
    ['fixed fee 0.5 and discount 0.8, USD', { amount: 100, discount: 0.8, fixedFee: 0.5 }, { fee: 0.5, feeKind: 'fixed', total: 80.5, pay: 80.5, saved: 19.5 }],
    ['fixed fee without discount costs more than the list price', { fixedFee: 2 }, { fee: 2, total: 12, pay: 12, saved: -2 }],
    ['a percent fee wins over a fixed one', { percentFee: 0.1, fixedFee: 3 }, { fee: 1, feeKind: 'percent', total: 11, pay: 11, saved: 0 }],
    ['fee rounded to cents', { amount: 7, percentFee: 0.033 }, { fee: 0.23, total: 7.23, pay: 7.23 }],
    ['odd discount keeps full precision until the total', { amount: 3, discount: 0.955 }, { discounted: 2.87, total: 2.87, pay: 2.87 }],
    ['CNY rounding of the converted price', { amount: 1, percentFee: 0.06, currency: 'CNY', usdRate: 7.1234 }, { fee: 0.06, total: 1.06, pay: 7.55 }],
  ] as const)('%s', (_name, input, expected) => {
    expect(quoteOrder({ ...base, ...input })).toMatchObject(expected);
  });

  it('rounds halves up without binary drift', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(2.675)).toBe(2.68);
    expect(round2(-1.005)).toBe(-1.01);
    expect(round2(0.1 + 0.2)).toBe(0.3);
  });
});

describe('quotePlan', () => {
  const gw = { fixedFee: 0, percentFee: 0, currency: 'USD', usdRate: 7.2 };
  it('prices a USD plan on a USD gateway at its price plus the fee', () => {
    expect(quotePlan({ ...gw, price: 12.5, planCurrency: 'USD', percentFee: 0.03 })).toMatchObject({ usd: 12.5, fee: 0.38, feeKind: 'percent', total: 12.88, pay: 12.88 });
  });
  it('converts a USD plan to a CNY gateway at the rate, fee included', () => {
    expect(quotePlan({ ...gw, price: 10, planCurrency: 'USD', fixedFee: 0.5, currency: 'CNY' })).toMatchObject({ usd: 10, fee: 0.5, feeKind: 'fixed', total: 10.5, pay: 75.6 });
  });
  it('reads a CNY plan in dollars at the rate', () => {
    expect(quotePlan({ ...gw, price: 72, planCurrency: 'CNY' })).toMatchObject({ usd: 10, total: 10, pay: 10 });
    expect(quotePlan({ ...gw, price: 72, planCurrency: 'CNY', currency: 'CNY' })).toMatchObject({ total: 10, pay: 72 });
  });
  it('charges a yuan plan on a yuan gateway its own price to the fen, fee in yuan (no round trip through dollar cents)', () => {
    const at73 = { ...gw, usdRate: 7.3, currency: 'CNY', planCurrency: 'CNY' };
    expect(quotePlan({ ...at73, price: 99 })).toMatchObject({ pay: 99, saved: 0 });
    expect(quotePlan({ ...at73, price: 99, percentFee: 0.03 })).toMatchObject({ pay: 101.97, feeKind: 'percent', saved: 0 });
    expect(quotePlan({ ...at73, price: 99, fixedFee: 0.5 })).toMatchObject({ pay: 102.65, feeKind: 'fixed', saved: -3.65 });
  });
});

describe('RechargeDiscount', () => {
  it('reads the amount → discount map and ignores junk', () => {
    expect(parseRechargeDiscount('{"10":0.9,"100":"0.8","x":0.5,"5":0,"20":-1}')).toEqual({ '10': 0.9, '100': 0.8 });
    expect(parseRechargeDiscount('')).toEqual({});
    expect(parseRechargeDiscount('[1,2]')).toEqual({});
    expect(parseRechargeDiscount('{bad')).toEqual({});
  });
  it('orders presets by amount', () => {
    expect(rechargePresets('{"100":0.8,"5":1,"20":0.95}')).toEqual([
      { amount: 5, discount: 1 },
      { amount: 20, discount: 0.95 },
      { amount: 100, discount: 0.8 },
    ]);
  });
});

describe('gateway and order bodies', () => {
  const gw = { type: 'epay', name: 'E', icon: 'i', currency: 'CNY' };
  it('fills defaults on create and none on update', () => {
    expect(PaymentBody.parse(gw)).toMatchObject({ sort: 1, enable: true, fixed_fee: 0, percent_fee: 0, config: '', notify_domain: '' });
    expect(UpdatePaymentBody.parse({ id: 3, sort: 0 })).toEqual({ id: 3, sort: 0 });
    expect(UpdatePaymentBody.safeParse({ id: 3, enable: false }).data).toEqual({ id: 3, enable: false });
  });
  it('refuses fees out of range and config that is not a JSON object', () => {
    expect(PaymentBody.safeParse({ ...gw, percent_fee: 1.5 }).success).toBe(false);
    expect(PaymentBody.safeParse({ ...gw, fixed_fee: -1 }).success).toBe(false);
    expect(PaymentBody.safeParse({ ...gw, config: '"text"' }).success).toBe(false);
    expect(PaymentBody.safeParse({ ...gw, config: '{"key":"k"}' }).success).toBe(true);
  });
  it('wants a whole, positive order amount', () => {
    expect(CreateOrderBody.safeParse({ uuid: 'u', amount: '12' }).data).toEqual({ uuid: 'u', amount: 12 });
    expect(CreateOrderBody.safeParse({ uuid: 'u', amount: 1.5 }).success).toBe(false);
    expect(CreateOrderBody.safeParse({ uuid: 'u', amount: 0 }).success).toBe(false);
    expect(CreateOrderBody.safeParse({ amount: 1 }).success).toBe(false);
  });
});
