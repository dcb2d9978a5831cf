import { describe, expect, it } from 'vitest';
import { buildMenu, findTrail, groupOf } from './menu';
import { SCREENS } from './screens';

const ids = (admin: boolean) =>
  buildMenu(SCREENS, admin).map((g) => [g.id, g.children.map((c) => (c.type === 'collapse' ? `${c.id}(${c.children.map((x) => x.id).join(',')})` : c.id))]);

describe('sidebar menu (console-spec §2)', () => {
  it('gives admins every group, item and collapse in spec order', () => {
    expect(ids(true)).toEqual([
      ['dashboard', ['dashboard', 'analytics', 'playground']],
      ['setting', ['user', 'channel', 'mcp', 'operation(user_group,pricing,telegram)', 'paySetting(redemption,plan,payment)', 'token', 'profile', 'setting']],
      ['billing', ['topup', 'subscription', 'model_price']],
      ['usage', ['log', 'midjourney', 'task']],
    ]);
  });

  it('hides admin entries from ordinary users and drops emptied collapses', () => {
    expect(ids(false)).toEqual([
      ['dashboard', ['dashboard', 'playground']],
      ['setting', ['token', 'profile']],
      ['billing', ['topup', 'subscription', 'model_price']],
      ['usage', ['log', 'midjourney', 'task']],
    ]);
  });

  it('shows root the system info item and everybody the monthly bills only when the site bills by month', () => {
    const group = (menu: ReturnType<typeof buildMenu>, id: string) => menu.find((g) => g.id === id)!.children.map((c) => c.id);
    expect(group(buildMenu(SCREENS, true, { root: true }), 'dashboard')).toEqual(['dashboard', 'analytics', 'playground', 'system_info', 'audit_log']);
    expect(group(buildMenu(SCREENS, true, { root: false }), 'dashboard')).not.toContain('system_info');
    expect(group(buildMenu(SCREENS, true, { root: false }), 'dashboard')).not.toContain('audit_log');
    expect(group(buildMenu(SCREENS, false, { site: { UserInvoiceMonth: true } }), 'usage')).toEqual(['log', 'invoice', 'midjourney', 'task']);
    expect(group(buildMenu(SCREENS, true, { root: true, site: { UserInvoiceMonth: false } }), 'usage')).not.toContain('invoice');
  });

  it('finds where a path sits, inside collapses too', () => {
    const menu = buildMenu(SCREENS, true);
    expect(findTrail(menu, '/panel/pricing')).toMatchObject({ group: { id: 'setting' }, collapse: { id: 'operation' }, item: { id: 'pricing' } });
    expect(findTrail(menu, '/panel/token/')).toMatchObject({ group: { id: 'setting' }, item: { id: 'token' } });
    expect(findTrail(menu, '/panel/nope')).toBeNull();
    expect(findTrail(buildMenu(SCREENS, false), '/panel/channel')).toBeNull();
  });

  it('has a route for every /panel screen of the spec, each admin screen marked admin', () => {
    const panel = new Map(SCREENS.filter((s) => s.layout === 'panel').map((s) => [s.path, s.access]));
    const spec = ['dashboard', 'channel', 'log', 'redemption', 'setting', 'token', 'topup', 'user', 'profile', 'analytics', '404', 'telegram', 'pricing', 'midjourney', 'model_price', 'playground', 'payment', 'task', 'user_group'];
    for (const id of spec) expect(panel.has(`/panel/${id}`), id).toBe(true);
    for (const id of ['user', 'channel', 'user_group', 'pricing', 'telegram', 'redemption', 'payment', 'setting', 'analytics']) expect(panel.get(`/panel/${id}`), id).toBe('admin');
    const pub = SCREENS.filter((s) => s.layout === 'public').map((s) => s.path);
    for (const p of ['/', '/about', '/login', '/register', '/reset', '/user/reset', '/oauth/github', '/oauth/oidc', '/oauth/lark', '/404', '/jump', '/playground']) expect(pub, p).toContain(p);
  });
});

describe('the opened sidebar group', () => {
  const menu = buildMenu(SCREENS, true, { root: true, site: { UserInvoiceMonth: true } });
  it('is the group of the current route, its collapses and sub-paths included', () => {
    expect(groupOf(menu, '/panel/dashboard')).toBe('dashboard');
    expect(groupOf(menu, '/panel/token/')).toBe('setting');
    expect(groupOf(menu, '/panel/pricing')).toBe('setting');
    expect(groupOf(menu, '/panel/invoice/detail/2025-10-01')).toBe('usage');
    expect(groupOf(menu, '/panel/topup')).toBe('billing');
  });
  it('is none off the menu', () => {
    expect(groupOf(menu, '/panel/nothing-here')).toBeNull();
    expect(groupOf(menu, '/panel/tokenish')).toBeNull();
  });
});
