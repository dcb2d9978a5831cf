import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError, withQuery } from './api';
import { contentKind, escapeHtml, renderMarkdown, sanitizeHtml } from './content';
import { describeError } from './error-handler';
import { normalizeLanguage, pickLanguage } from './language';
import { isMobileWidth, TOAST_DURATION, toastAnchor, toastOptions } from './toast-options';
import { buildLabel, isNewVersion } from './version';

const TEXTS: Record<string, string> = {
  'error.tooManyRequests': '错误：请求次数过多，请稍后再试！',
  'error.serverError': '错误：服务器内部错误，请联系管理员！',
  'error.demoSite': '本站仅作演示之用，无服务端！',
  'error.prefix': '错误：',
  'common.unableServer': '无法正常连接至服务器！',
};
const t = ((k: string) => TEXTS[k] ?? k) as unknown as TFunction;

describe('error handler', () => {
  it.each([
    [new ApiError('x', 429, 'slow'), 'error', TEXTS['error.tooManyRequests']],
    [new ApiError('x', 500), 'error', TEXTS['error.serverError']],
    [new ApiError('x', 405), 'info', TEXTS['error.demoSite']],
    [new ApiError('Request failed with status code 400', 400, '名称不能为空'), 'error', '错误：名称不能为空'],
    [new ApiError('Request failed with status code 404', 404), 'error', '错误：Request failed with status code 404'],
    [new ApiError('用户已被封禁', 200, '用户已被封禁'), 'error', '错误：用户已被封禁'],
    [new ApiError('Failed to fetch', 0), 'error', '错误：无法正常连接至服务器！'],
    [new Error('boom'), 'error', '错误：boom'],
    ['plain text', 'error', '错误：plain text'],
    [{ weird: 1 }, 'error', '错误：{"weird":1}'],
  ])('%o → %s %s', (err, variant, text) => {
    expect(describeError(err, t)).toEqual({ variant, text });
  });
});

describe('toast options', () => {
  it('uses the spec durations and persists copy toasts', () => {
    expect(TOAST_DURATION).toEqual({ error: 5000, warning: 10000, success: 1500, info: 3000, notice: 20000, copy: null });
    expect(toastOptions('notice', 1200)).toMatchObject({ variant: 'info', autoHideDuration: 20000, persist: false, preventDuplicate: true });
    expect(toastOptions('copy', 1200)).toMatchObject({ variant: 'copy', persist: true });
  });
  it('anchors bottom-centre at every width, clear of the sidebar and the paginators', () => {
    expect(isMobileWidth(600)).toBe(true);
    expect(isMobileWidth(601)).toBe(false);
    expect(toastAnchor(1280)).toEqual({ vertical: 'bottom', horizontal: 'center' });
    expect(toastAnchor(375)).toEqual({ vertical: 'bottom', horizontal: 'center' });
  });
});

describe('language', () => {
  it.each([
    ['en', 'en_US'],
    ['en-GB', 'en_US'],
    ['ja-JP', 'ja_JP'],
    ['zh-CN', 'zh_CN'],
    ['zh', 'zh_CN'],
    ['zh-TW', 'zh_HK'],
    ['zh-Hant', 'zh_HK'],
    ['zh_HK', 'zh_HK'],
    ['fr', null],
    ['', null],
  ])('%s → %s', (tag, lng) => expect(normalizeLanguage(tag)).toBe(lng));
  it('prefers the stored choice, then the server language, then zh_CN', () => {
    expect(pickLanguage('ja_JP', 'en_US')).toBe('ja_JP');
    expect(pickLanguage(null, 'en_US')).toBe('en_US');
    expect(pickLanguage(null, '')).toBe('zh_CN');
    expect(pickLanguage('klingon', 'xx')).toBe('zh_CN');
  });
});

describe('content', () => {
  it.each([
    ['', 'empty'],
    ['  ', 'empty'],
    ['https://example.com/page', 'url'],
    ['<div>hi</div>', 'html'],
    ['<not closed', 'markdown'],
    ['# Title', 'markdown'],
  ])('%s is %s', (text, kind) => expect(contentKind(text)).toBe(kind));
  it('renders markdown and strips scripts and handlers', () => {
    expect(renderMarkdown('**hi**')).toContain('<strong>hi</strong>');
    const html = sanitizeHtml('<b onclick="x()">a</b><script>alert(1)</script><a href="javascript:alert(1)">l</a>');
    expect(html).not.toMatch(/onclick|<script|javascript:/);
  });
});

describe('version notice', () => {
  it.each([
    ['v1.2.0', 'v1.1.0', true],
    ['v1.1.0', 'v1.1.0', false],
    ['', 'v1.1.0', false],
    ['v0.0.0', 'v1.1.0', false],
    ['v1.2.0', 'v0.0.0', false],
  ])('server %s build %s → %s', (server, build, due) => expect(isNewVersion(server, build)).toBe(due));
  it('labels the footer with the built version and commit', () => {
    expect(buildLabel()).toBe('v0.0.0 (abc1234)');
    expect(buildLabel('v1.2.3', '')).toBe('v1.2.3');
  });
});

describe('query strings', () => {
  it('skips empty values and appends to existing queries', () => {
    expect(withQuery('/api/x', { a: 1, b: '', c: undefined, d: 'é' })).toBe('/api/x?a=1&d=%C3%A9');
    expect(withQuery('/api/x?p=1', { q: 'y' })).toBe('/api/x?p=1&q=y');
    expect(withQuery('/api/x', {})).toBe('/api/x');
  });
});

describe('escapeHtml', () => {
  it('writes markup and quotes as text, so an innerHTML label shows the name as it is', () => {
    const el = document.createElement('span');
    el.innerHTML = `<span title="${escapeHtml('a"b')}">${escapeHtml('<img src=x onerror=alert(1)> & co')}</span>`;
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toBe('<img src=x onerror=alert(1)> & co');
    expect(el.firstElementChild!.getAttribute('title')).toBe('a"b');
  });
});
