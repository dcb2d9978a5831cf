import { beforeAll, describe, expect, it } from 'vitest';
import { PaymentForm, RedemptionForm, TelegramMenuForm, topUpForm, UserGroupForm, V } from '@one-hub/contract';
import i18n from './i18n';
import { fieldErrors } from './form-errors';

type Tree = { validation: Record<string, string> };
const locales = import.meta.glob<{ default: Tree }>('../locales/*.json', { eager: true });

const group = { name: 'VIP', symbol: 'vip_1', ratio: '0.8', api_rate: '300', promotion: false, min: '0', max: '0', public: true };
const gateway = { name: 'Epay', type: 'epay', currency: 'CNY', icon: 'i', fixed_fee: '0', percent_fee: '0.03', sort: '0' };
const errorsOf = (r: { success: boolean; error?: unknown }) => (r.success ? {} : fieldErrors(r.error as Parameters<typeof fieldErrors>[0]));

describe('form field messages name their bound (issue 38)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en_US');
    await i18n.loadNamespaces('common');
  });

  it('words "at least N", "at most N", "greater than N" and text lengths with the figure', () => {
    expect(errorsOf(UserGroupForm.safeParse({ ...group, ratio: '-1' }))).toEqual({ ratio: 'Must be at least 0' });
    expect(errorsOf(UserGroupForm.safeParse({ ...group, promotion: true, min: '50', max: '10' }))).toEqual({ max: 'Must be at least 50' });
    expect(errorsOf(RedemptionForm.safeParse({ name: 'x', count: '0', quota: '1' }))).toEqual({ count: 'Must be at least 1' });
    expect(errorsOf(PaymentForm.safeParse({ ...gateway, percent_fee: '2' }))).toEqual({ percent_fee: 'Must be at most 1' });
    expect(errorsOf(TelegramMenuForm.safeParse({ command: 'balance', description: 'd'.repeat(256), reply_message: 'r', parse_mode: 'Markdown' }))).toEqual({ description: 'At most 255 characters' });
    expect(errorsOf(topUpForm(1).safeParse({ amount: '0', gateway: 1 })).amount).toBe('Must be greater than 0');
    expect(errorsOf(RedemptionForm.safeParse({ name: '', count: '1', quota: '1' }))).toEqual({ name: 'This field is required' });
  });

  it('speaks the reader language', async () => {
    await i18n.changeLanguage('ja_JP');
    await i18n.loadNamespaces('common');
    expect(errorsOf(RedemptionForm.safeParse({ name: 'x', count: '0', quota: '1' }))).toEqual({ count: '1 以上にしてください' });
    await i18n.changeLanguage('en_US');
  });

  it('has every form rule text in all four locales, and no generic "too small / too large" left unused', () => {
    expect(Object.keys(locales)).toHaveLength(4);
    const used = Object.values(V).map((k) => k.replace(/^validation\./, ''));
    for (const [path, mod] of Object.entries(locales)) {
      const keys = Object.keys(mod.default.validation);
      for (const k of [...used, 'above']) expect(keys, path).toContain(k);
      expect(keys, path).not.toContain('min');
      expect(keys, path).not.toContain('max');
    }
  });
});
