import { beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { API_ERRORS, FIELD_ERRORS } from '@one-hub/contract';
import i18n from './i18n';
import { api, ApiError } from './api';
import { failureText, fieldErrorText } from './api-errors';
import { serverFieldErrors } from './form-errors';

type Locale = { default: { error: Record<string, string>; field: Record<string, string> } };
const locales = import.meta.glob<Locale>('../features/server-text/locales/*.json', { eager: true });
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('server failure codes in the reader language', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en_US');
    await i18n.loadNamespaces('server-text');
  });
  afterAll(() => vi.unstubAllGlobals());

  it('has every code the server can answer, and every field code, in all four languages with the same arguments', () => {
    expect(Object.keys(locales)).toHaveLength(4);
    for (const [path, mod] of Object.entries(locales)) {
      expect(Object.keys(mod.default.error).sort(), path).toEqual(Object.keys(API_ERRORS).sort());
      expect(Object.keys(mod.default.field).sort(), path).toEqual(Object.keys(FIELD_ERRORS).sort());
      for (const [code, zh] of Object.entries(API_ERRORS)) {
        const text = mod.default.error[code];
        expect(text, `${path} ${code}`).toBeTruthy();
        // A translation may drop a repeated English aside of the Chinese text, never name an argument the server does not send.
        for (const name of placeholders(text)) expect(placeholders(zh), `${path} ${code}`).toContain(name);
      }
    }
    for (const [path, mod] of Object.entries(locales)) {
      if (!/en_US/.test(path)) continue;
      for (const [code, text] of Object.entries({ ...mod.default.error, ...mod.default.field })) expect(CJK.test(text), code).toBe(false);
    }
  });

  it('translates a code with its arguments, the field of a refused body, and falls back to the message for an unknown code', () => {
    expect(failureText('login_failed', undefined, undefined, '用户名或密码错误，或用户已被封禁')).toBe('Wrong username or password, or the user is banned');
    expect(failureText('group_exists', { name: 'vip' }, undefined, '分组标识 vip 已存在')).toBe('A group with the symbol vip already exists');
    const fields = [{ path: 'username', code: 'too_short' as const, args: { minimum: 3 }, message: 'username must be at least 3 characters' }];
    expect(failureText('invalid_parameter', { field: 'username', detail: fields[0].message }, fields, 'username: username must be at least 3 characters')).toBe('username: At least 3 characters');
    expect(fieldErrorText(fields[0])).toBe('At least 3 characters');
    expect(failureText('made_up_code', undefined, undefined, '原文')).toBe('原文');
    expect(failureText(undefined, undefined, undefined, 'plain')).toBe('plain');
    // A generic code: the generic translation for a non-Chinese reader.
    expect(failureText('not_found', undefined, undefined, '令牌不存在')).toBe('Not found');
  });

  it('keeps the server message for a zh_CN reader (the texts console-spec binds)', async () => {
    await i18n.changeLanguage('zh_CN');
    try {
      expect(failureText('group_exists', { name: 'vip' }, undefined, '分组标识 vip 已存在')).toBe('分组标识 vip 已存在');
    } finally {
      await i18n.changeLanguage('en_US');
    }
  });

  it('throws an ApiError whose message is translated and which carries the code, arguments and fields', async () => {
    const body = { success: false, message: '分组标识 vip 已存在', code: 'group_exists', args: { name: 'vip' }, fields: [{ path: 'symbol', code: 'invalid_value', message: '分组标识 vip 已存在' }] };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 409, headers: { 'content-type': 'application/json' } })));
    const error = (await api('/api/user_group/', { json: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.serverMessage, error.args, error.fields?.[0].path]).toEqual([409, 'group_exists', 'A group with the symbol vip already exists', { name: 'vip' }, 'symbol']);
  });

  it('puts a refused body\'s fields, and a coded failure about one field, at the form\'s fields', () => {
    const refused = new ApiError('x', 400, 'x', 'invalid_parameter', undefined, { field: 'username' }, [
      { path: 'username', code: 'too_short', args: { minimum: 3 }, message: 'm' },
      { path: 'remain_quota', code: 'too_small', args: { minimum: 0 }, message: 'm' },
      { path: 'setting.limits.rpm', code: 'too_big', args: { maximum: 9 }, message: 'm' },
    ]);
    expect(serverFieldErrors(refused, ['username', 'remainQuota'], { remain_quota: 'remainQuota' })).toEqual({ username: 'At least 3 characters', remainQuota: 'Must be at least 0' });
    const taken = new ApiError('A group with the symbol vip already exists', 409, 'A group with the symbol vip already exists', 'group_exists', undefined, { name: 'vip' }, [{ path: 'symbol', code: 'invalid_value', message: '分组标识 vip 已存在' }]);
    expect(serverFieldErrors(taken, ['symbol'])).toEqual({ symbol: 'A group with the symbol vip already exists' });
    expect(serverFieldErrors(new ApiError('plain', 500), ['symbol'])).toEqual({});
  });
});
