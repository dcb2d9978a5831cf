import { describe, expect, it } from 'vitest';
import { orderFromTopUp } from './top-ups.js';

const row = { id: 1, user_id: 9, trade_no: 'T-1', create_time: 1000, complete_time: 0 };

describe('new-api top-ups as orders', () => {
  it('credit what new-api credited: Creem rows hold quota itself, the site QuotaPerUnit applies to the others', () => {
    const creem = orderFromTopUp({ ...row, amount: 750_000, money: 4.99, payment_method: 'creem', payment_provider: 'creem', status: 'success' }, 250_000);
    expect(creem).toMatchObject({ quota: 750_000, amount: 3, order_amount: 4.99, order_currency: 'USD', status: 'success', gateway_id: 0, updated_at: 1000 });
    const epay = orderFromTopUp({ ...row, amount: 4, money: 29.2, payment_method: 'qqpay', status: 'pending' }, 250_000);
    expect(epay).toMatchObject({ quota: 1_000_000, amount: 4, order_amount: 29.2, order_currency: 'CNY', status: 'pending' });
  });

  it('name a status of no meaning here as a failure with the original status', () => {
    expect(orderFromTopUp({ ...row, amount: 1, money: 1, status: 'manual_review' }, 500_000)).toMatchObject({ status: 'failed', fail_reason: 'new-api status: manual_review' });
  });
});
