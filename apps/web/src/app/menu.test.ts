import { describe, expect, it } from 'vitest';
import { PANEL_SCREENS, visibleMenu } from './menu';

const ids = (admin: boolean) => visibleMenu(admin).flatMap((g) => g.items.flatMap((i) => [i.id, ...(i.children ?? []).map((c) => c.id)]));

describe('sidebar', () => {
  it('hides administration from ordinary users', () => {
    expect(ids(false)).toEqual(['dashboard', 'playground', 'token', 'profile', 'topup', 'model_price', 'log', 'midjourney', 'task']);
  });
  it('shows everything to admins, including collapsible groups', () => {
    expect(ids(true)).toEqual(expect.arrayContaining(['analytics', 'user', 'channel', 'operation', 'user_group', 'pricing', 'telegram', 'paySetting', 'redemption', 'payment', 'setting']));
  });
  it('routes every screen of the spec under /panel', () => {
    expect(PANEL_SCREENS.map((s) => s.id).sort()).toEqual(
      ['analytics', 'channel', 'dashboard', 'log', 'midjourney', 'model_price', 'payment', 'playground', 'pricing', 'profile', 'redemption', 'setting', 'task', 'telegram', 'token', 'topup', 'user', 'user_group'].sort(),
    );
  });
});
