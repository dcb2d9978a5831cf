import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['topup', 'plan', 'token']);
});

describe('English plurals and labels', () => {
  it('says "Lasts 1 month" and "Lasts 3 months", not "month(s)"', () => {
    expect(i18n.t('topup:plans.length.month', { count: 1 })).toBe('Lasts 1 month');
    expect(i18n.t('topup:plans.length.month', { count: 3 })).toBe('Lasts 3 months');
    expect(i18n.t('topup:plans.length.day', { count: 1 })).toBe('Lasts 1 day');
    expect(i18n.t('plan:every.week', { count: 2 })).toBe('2 weeks');
    expect(i18n.t('plan:every.month', { count: 1 })).toBe('1 month');
  });

  it('copies the new key with one space: "Copied token!"', () => {
    expect(i18n.t('common:common.copySuccess', { label: i18n.t('token:newKey.label') })).toBe('Copied token!');
  });
});
