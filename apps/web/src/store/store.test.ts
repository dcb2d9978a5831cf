import { describe, expect, it } from 'vitest';
import { isAdminUser } from './account';
import { SITE_INFO_DEFAULTS, siteInfoFrom } from './site-info';
import { makeStore } from './index';
import { setBorderRadius, setTheme } from './customization';
import { openNotice, setNotice } from './notice';

describe('store', () => {
  it('starts with the spec defaults', () => {
    const s = makeStore().getState();
    expect(s.customization).toMatchObject({ defaultId: 'default', borderRadius: 12, opened: true, theme: 'light', isOpen: [] });
    expect(s.customization.fontFamily).toMatch(/^'Roboto'/);
    expect(s.siteInfo).toMatchObject({ system_name: 'One Hub', quota_per_unit: 500000, display_in_currency: true, language: 'zh_CN', isLoading: true, start_time: 0 });
    expect(s.account).toMatchObject({ user: null, userLoaded: false });
  });

  it('merges status into the defaults, drops an empty chat_link and stops loading', () => {
    const info = siteInfoFrom({ system_name: 'Hub X', chat_link: '', quota_per_unit: 1000, version: 'v2' });
    expect(info).toMatchObject({ system_name: 'Hub X', chat_link: '', quota_per_unit: 1000, version: 'v2', isLoading: false, github_oauth: false });
    expect(siteInfoFrom(null)).toEqual({ ...SITE_INFO_DEFAULTS, isLoading: false });
    expect(siteInfoFrom({ system_name: '' }).system_name).toBe('One Hub');
  });

  it('treats role 10 and above as admin', () => {
    expect(isAdminUser({ role: 10 })).toBe(true);
    expect(isAdminUser({ role: 100 })).toBe(true);
    expect(isAdminUser({ role: 3 })).toBe(false);
    expect(isAdminUser(null)).toBe(false);
  });

  it('never opens an empty notice', () => {
    const store = makeStore();
    store.dispatch(openNotice(true));
    expect(store.getState().notice.open).toBe(false);
    store.dispatch(setNotice('hello'));
    store.dispatch(openNotice(true));
    expect(store.getState().notice.open).toBe(true);
    store.dispatch(setTheme('dark'));
    store.dispatch(setBorderRadius(8));
    expect(store.getState().customization).toMatchObject({ theme: 'dark', borderRadius: 8 });
  });
});
