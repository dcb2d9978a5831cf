import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../lib/i18n';
import { makeStore } from '../store';
import { startUp } from './use-startup';
import { openNotice, setNotice } from '../store/notice';

const toasts = vi.hoisted(() => ({ errors: [] as string[] }));
vi.mock('../lib/toast', async () => {
  const { describeError } = await import('../lib/error-handler');
  const { default: i18n } = await import('../lib/i18n');
  return {
    showError: (e: unknown) => toasts.errors.push(typeof e === 'string' ? e : describeError(e, i18n.t).text),
    showNotice: () => undefined,
  };
});

type Answer = { status: number; body?: unknown };
let answers: Record<string, Answer>;
const calls: string[] = [];

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common']);
});
beforeEach(() => {
  toasts.errors.length = 0;
  calls.length = 0;
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 }));
  localStorage.setItem('appLanguage', 'en_US');
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    const a = answers[url] ?? { status: 200, body: { success: true, message: '', data: '' } };
    return new Response(a.body === undefined ? '' : JSON.stringify(a.body), { status: a.status });
  });
});
afterEach(() => vi.unstubAllGlobals());

const ok = (data: unknown): Answer => ({ status: 200, body: { success: true, message: '', data } });

describe('start-up', () => {
  it('keeps the signed-in user on a 429 and says "too many requests" once', async () => {
    answers = { '/api/user/self': { status: 429 }, '/api/status': { status: 429 } };
    const store = makeStore();
    await startUp(store.dispatch, i18n.t, i18n);
    expect(store.getState().account).toMatchObject({ user: { username: 'root' }, userLoaded: true });
    expect(localStorage.getItem('user')).toContain('root');
    expect(toasts.errors).toEqual(['Error: too many requests, please try again later!']);
  });

  it('forgets the user on a 401, silently', async () => {
    answers = { '/api/user/self': { status: 401, body: { success: false, message: 'unauthorized' } }, '/api/status': ok({ system_name: 'Hub' }) };
    const store = makeStore();
    await startUp(store.dispatch, i18n.t, i18n);
    expect(store.getState().account).toMatchObject({ user: null, userLoaded: true });
    expect(localStorage.getItem('user')).toBeNull();
    expect(toasts.errors).toEqual([]);
  });

  it('keeps the user when the server is down and says it cannot connect', async () => {
    answers = { '/api/user/self': { status: 502 }, '/api/status': { status: 502 } };
    const store = makeStore();
    await startUp(store.dispatch, i18n.t, i18n);
    expect(store.getState().account.user?.username).toBe('root');
    expect(toasts.errors).toEqual(['Unable to connect to the server!']);
  });

  it('calls one endpoint at a time: session, group map, status, notice', async () => {
    answers = { '/api/user/self': ok({ id: 1, username: 'root', role: 100 }), '/api/status': ok({ system_name: 'Hub' }), '/api/notice': ok('hello') };
    const store = makeStore();
    await startUp(store.dispatch, i18n.t, i18n);
    expect(calls).toEqual(['/api/user/self', '/api/user_group_map', '/api/status', '/api/notice']);
    expect(store.getState().notice).toEqual({ text: 'hello', open: true, read: true });
    expect(toasts.errors).toEqual([]);
  });

  it('clears the notice dot for a notice read on an earlier visit, and shows it for a new one', async () => {
    answers = { '/api/user/self': ok({ id: 1, username: 'root', role: 100 }), '/api/status': ok({}), '/api/notice': ok('old news') };
    localStorage.setItem('notice', 'old news');
    const store = makeStore();
    await startUp(store.dispatch, i18n.t, i18n);
    expect(store.getState().notice).toEqual({ text: 'old news', open: false, read: true });
    store.dispatch(setNotice('fresh news'));
    expect(store.getState().notice.read).toBe(false);
    store.dispatch(openNotice(true));
    store.dispatch(openNotice(false));
    expect(store.getState().notice).toEqual({ text: 'fresh news', open: false, read: true });
  });
});
