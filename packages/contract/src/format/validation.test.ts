import { describe, expect, it } from 'vitest';
import {
  ChannelForm, ChatLinkForm, isUniqueSymbol, isValidJson, isValidModelPattern, PaymentForm, PricingForm, ProfileForm, RedemptionForm,
  RegisterForm, RegisterWithEmailForm, TelegramMenuForm, topUpForm, trimDeep, trimTrailingSlash, UserForm, UserGroupForm, V,
} from './validation.js';

const firstIssue = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  r.success ? null : { message: r.error!.issues[0].message, path: r.error!.issues[0].path.join('.') };

const channel = { name: 'c', type: 1, base_url: 'https://x/', key: 'k', models: ['gpt-4'], group: ['default'], model_mapping: '', model_headers: '', priority: 0, weight: 1, test_model: '' };

describe('validation rules', () => {
  it.each([
    ['gpt-3.5*', true],
    ['gpt-4', true],
    ['*gpt-3.5', false],
    ['*', false],
    ['gp*t', false],
  ])('model pattern %s valid=%s', (m, ok) => expect(isValidModelPattern(m)).toBe(ok));

  it('accepts a good channel and strips the trailing slash', () => {
    const r = ChannelForm.parse(channel);
    expect(r.base_url).toBe('https://x');
  });

  it.each([
    [{ name: ' ' }, 'name', V.required],
    [{ key: '' }, 'key', V.required],
    [{ models: [] }, 'models', V.required],
    [{ group: [] }, 'group', V.required],
    [{ models: ['*x'] }, 'models.0', V.wildcard],
    [{ model_mapping: '{bad' }, 'model_mapping', V.json],
    [{ model_headers: '[' }, 'model_headers', V.json],
    [{ priority: -1 }, 'priority', V.min],
    [{ weight: 0 }, 'weight', V.min],
  ])('rejects channel %o', (patch, path, message) => {
    expect(firstIssue(ChannelForm.safeParse({ ...channel, ...patch }))).toEqual({ path, message });
  });

  it('checks payments, prices, codes and users', () => {
    const pay = { name: 'p', type: 'stripe', currency: 'USD', icon: 'i', fixed_fee: 0, percent_fee: 0.05, sort: 0 };
    expect(PaymentForm.safeParse(pay).success).toBe(true);
    expect(firstIssue(PaymentForm.safeParse({ ...pay, percent_fee: 5 }))?.path).toBe('percent_fee');
    expect(firstIssue(PaymentForm.safeParse({ ...pay, currency: '' }))?.path).toBe('currency');
    const price = { name: 'n', type: 'tokens', channel_type: 1, models: ['a', 'b'], input: 15, output: 30 };
    expect(PricingForm.safeParse(price).success).toBe(true);
    expect(firstIssue(PricingForm.safeParse({ ...price, models: ['a', 'a'] }))?.message).toBe(V.unique);
    expect(firstIssue(PricingForm.safeParse({ ...price, type: 'bytes' }))?.path).toBe('type');
    expect(firstIssue(PricingForm.safeParse({ ...price, input: -1 }))?.path).toBe('input');
    expect(firstIssue(RedemptionForm.safeParse({ name: 'r', count: 0, quota: 1 }))?.path).toBe('count');
    expect(firstIssue(RedemptionForm.safeParse({ name: 'r', count: 1, quota: -1 }))?.path).toBe('quota');
    expect(firstIssue(UserForm.safeParse({ username: 'u', password: 'p', group: '', quota: 0 }))?.path).toBe('group');
    expect(firstIssue(TelegramMenuForm.safeParse({ command: 'c', description: 'd', reply_message: '', reply_type: 'text' }))?.path).toBe('reply_message');
  });

  it('checks chat-link rows: name and URL required, sort a non-negative integer', () => {
    const link = { name: 'n', url: 'https://x/{key}', show: true, sort: '3' };
    expect(ChatLinkForm.parse(link).sort).toBe(3);
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, url: ' ' }))).toEqual({ path: 'url', message: V.required });
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, sort: -1 }))).toEqual({ path: 'sort', message: V.min });
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, sort: 1.5 }))).toEqual({ path: 'sort', message: V.integer });
  });

  it('checks profile lengths', () => {
    expect(firstIssue(ProfileForm.safeParse({ username: 'ab', display_name: '', password: '' }))?.path).toBe('username');
    expect(firstIssue(ProfileForm.safeParse({ username: 'abc', display_name: '', password: 'short' }))?.path).toBe('password');
    expect(ProfileForm.safeParse({ username: 'abc', display_name: '', password: '' }).success).toBe(true);
  });

  it('checks registration: matching passwords, e-mail and code when verification is on', () => {
    const reg = { username: 'u', password: 'password1', password2: 'password1', email: '', verification_code: '' };
    expect(RegisterForm.safeParse(reg).success).toBe(true);
    expect(firstIssue(RegisterForm.safeParse({ ...reg, password2: 'other' }))).toEqual({ path: 'password2', message: V.match });
    expect(firstIssue(RegisterWithEmailForm.safeParse({ ...reg, email: 'nope' }))?.message).toBe(V.email);
    expect(firstIssue(RegisterWithEmailForm.safeParse({ ...reg, email: 'a@b.co' }))?.path).toBe('verification_code');
  });

  it('checks top-up amounts against the minimum and the maximum', () => {
    const f = topUpForm(10);
    expect(f.safeParse({ amount: 10, gateway: 1 }).success).toBe(true);
    expect(firstIssue(f.safeParse({ amount: 9, gateway: 1 }))?.path).toBe('amount');
    expect(firstIssue(f.safeParse({ amount: 10.5, gateway: 1 }))?.message).toBe(V.integer);
    expect(firstIssue(f.safeParse({ amount: 1_000_001, gateway: 1 }))?.message).toBe(V.max);
    expect(firstIssue(f.safeParse({ amount: 10, gateway: 0 }))?.path).toBe('gateway');
  });

  it('checks group symbols', () => {
    expect(UserGroupForm.safeParse({ name: 'VIP', symbol: 'vip_1' }).success).toBe(true);
    expect(firstIssue(UserGroupForm.safeParse({ name: 'VIP', symbol: '贵宾' }))?.message).toBe(V.english);
    expect(isUniqueSymbol('vip', ['default', 'vip'])).toBe(false);
  });

  it('trims deeply, strips trailing slashes and checks JSON', () => {
    expect(trimDeep({ a: ' x ', b: [' y', { c: 'z ' }], n: 1 })).toEqual({ a: 'x', b: ['y', { c: 'z' }], n: 1 });
    expect(trimTrailingSlash(' https://a.b/// ')).toBe('https://a.b');
    expect(isValidJson('{"a":1}')).toBe(true);
    expect(isValidJson('{a:1}')).toBe(false);
  });
});
