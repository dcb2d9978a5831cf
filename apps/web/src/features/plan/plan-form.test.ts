import { describe, expect, it } from 'vitest';
import { formToBody, NEW_PLAN, planToForm } from './plan-form';

describe('plan form', () => {
  it('turns comma lists into arrays and numbers into numbers', () => {
    const { body, errors } = formToBody({ ...NEW_PLAN, name: 'Pro', models: 'gpt-4o, claude-3 ,', groups: 'vip' });
    expect(errors).toEqual({});
    expect(body).toMatchObject({ name: 'Pro', price: 9.9, duration_count: 1, window_quota: 500000, models: ['gpt-4o', 'claude-3'], groups: ['vip'] });
  });

  it('names the fields that are wrong', () => {
    const { body, errors } = formToBody({ ...NEW_PLAN, name: '', price: '1.234', window_quota: '0' });
    expect(body).toBeUndefined();
    expect(Object.keys(errors).sort()).toEqual(['name', 'price', 'window_quota']);
  });

  it('round-trips a stored plan', () => {
    const form = planToForm({ id: 1, name: 'A', description: '', price: 5, currency: 'CNY', duration_kind: 'day', duration_count: 30, window_kind: 'day', window_quota: 100, groups: [], models: ['m'], renews: false, public: true, enabled: true, sort: 0, created_at: 0, updated_at: 0 });
    expect(form).toMatchObject({ price: '5.00', models: 'm', duration_count: '30' });
    expect(formToBody(form).body).toMatchObject({ price: 5, currency: 'CNY', models: ['m'] });
  });
});
