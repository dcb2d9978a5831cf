import { describe, expect, it } from 'vitest';
import {
  ChannelForm, ChatLinkForm, isUniqueSymbol, quotaChangeForm, userForm, isValidJson, isValidModelPattern, PaymentForm, PricingForm, ProfileForm, RedemptionForm,
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
    expect(firstIssue(TelegramMenuForm.safeParse({ command: 'c', description: 'd', reply_message: '', parse_mode: 'Markdown' }))?.path).toBe('reply_message');
  });

  it('checks chat-link rows: name and URL required, sort a non-negative integer', () => {
    const link = { name: 'n', url: 'https://x/{key}', show: true, sort: '3' };
    expect(ChatLinkForm.parse(link).sort).toBe(3);
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, url: ' ' }))).toEqual({ path: 'url', message: V.required });
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, sort: -1 }))).toEqual({ path: 'sort', message: V.min });
    expect(firstIssue(ChatLinkForm.safeParse({ ...link, sort: 1.5 }))).toEqual({ path: 'sort', message: V.integer });
  });

  it('checks an admin quota change: signed dollars, never 0, no deduction past the balance', () => {
    const form = quotaChangeForm(5);
    expect(form.parse({ amount: '-5', remark: '' }).amount).toBe(-5);
    expect(form.parse({ amount: '12.5', remark: ' r ' })).toEqual({ amount: 12.5, remark: 'r' });
    expect(firstIssue(form.safeParse({ amount: '0', remark: '' }))).toEqual({ path: 'amount', message: V.nonZero });
    expect(firstIssue(form.safeParse({ amount: '', remark: '' }))).toEqual({ path: 'amount', message: V.required });
    expect(firstIssue(form.safeParse({ amount: '-5.01', remark: '' }))).toEqual({ path: 'amount', message: V.overBalance });
    expect(firstIssue(quotaChangeForm(-3).safeParse({ amount: '-1', remark: '' }))?.message).toBe(V.overBalance);
  });

  it('checks the admin user dialog: password on create only, group on edit only', () => {
    const user = { username: 'alice', display_name: '', password: '', group: '' };
    expect(firstIssue(userForm(true).safeParse(user))).toEqual({ path: 'password', message: V.tooShort });
    expect(userForm(true).safeParse({ ...user, password: 'password1' }).success).toBe(true);
    expect(firstIssue(userForm(false).safeParse(user))).toEqual({ path: 'group', message: V.required });
    expect(userForm(false).safeParse({ ...user, group: 'default' }).success).toBe(true);
    expect(firstIssue(userForm(false).safeParse({ ...user, group: 'default', password: 'short' }))?.path).toBe('password');
    expect(firstIssue(userForm(true).safeParse({ ...user, username: ' ', password: 'password1' }))?.path).toBe('username');
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
    const group = { name: 'VIP', symbol: 'vip_1', ratio: '0.8', api_rate: '300', promotion: false, min: '0', max: '0', public: true };
    expect(UserGroupForm.parse(group)).toMatchObject({ ratio: 0.8, api_rate: 300 });
    expect(firstIssue(UserGroupForm.safeParse({ ...group, symbol: '贵宾' }))?.message).toBe(V.english);
    expect(firstIssue(UserGroupForm.safeParse({ ...group, ratio: '' }))).toEqual({ path: 'ratio', message: V.required });
    expect(firstIssue(UserGroupForm.safeParse({ ...group, api_rate: '1.5' }))).toEqual({ path: 'api_rate', message: V.integer });
    expect(firstIssue(UserGroupForm.safeParse({ ...group, ratio: '-1' }))).toEqual({ path: 'ratio', message: V.min });
    expect(firstIssue(UserGroupForm.safeParse({ ...group, promotion: true, min: '50', max: '10' }))).toEqual({ path: 'max', message: V.min });
    expect(UserGroupForm.safeParse({ ...group, promotion: false, min: '50', max: '10' }).success).toBe(true);
    expect(isUniqueSymbol('vip', ['default', 'vip'])).toBe(false);
  });

  it('trims deeply, strips trailing slashes and checks JSON', () => {
    expect(trimDeep({ a: ' x ', b: [' y', { c: 'z ' }], n: 1 })).toEqual({ a: 'x', b: ['y', { c: 'z' }], n: 1 });
    expect(trimTrailingSlash(' https://a.b/// ')).toBe('https://a.b');
    expect(isValidJson('{"a":1}')).toBe(true);
    expect(isValidJson('{a:1}')).toBe(false);
  });
});
