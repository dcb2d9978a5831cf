/** Sidebar of console-spec §2: groups, items, admin-only entries and collapsible sub-menus. */
export interface MenuItem {
  id: string;
  path: string;
  admin?: boolean;
  children?: MenuItem[];
}

export interface MenuGroup {
  id: string;
  items: MenuItem[];
}

const item = (id: string, admin = false): MenuItem => ({ id, path: `/panel/${id}`, admin });

export const MENU: MenuGroup[] = [
  { id: 'dashboard', items: [item('dashboard'), item('analytics', true), item('playground')] },
  {
    id: 'setting',
    items: [
      item('user', true),
      item('channel', true),
      { id: 'operation', path: '/panel/user_group', admin: true, children: [item('user_group', true), item('pricing', true), item('telegram', true)] },
      { id: 'paySetting', path: '/panel/redemption', admin: true, children: [item('redemption', true), item('payment', true)] },
      item('token'),
      item('profile'),
      item('setting', true),
    ],
  },
  { id: 'billing', items: [item('topup'), item('model_price')] },
  { id: 'usage', items: [item('log'), item('midjourney'), item('task')] },
];

/** The menu a user may see: admin entries removed for everyone below role 10. */
export function visibleMenu(admin: boolean): MenuGroup[] {
  const keep = (i: MenuItem): MenuItem | null => {
    if (i.admin && !admin) return null;
    return i.children ? { ...i, children: i.children.map(keep).filter((c): c is MenuItem => c !== null) } : i;
  };
  return MENU.map((g) => ({ ...g, items: g.items.map(keep).filter((i): i is MenuItem => i !== null) })).filter((g) => g.items.length);
}

/** Every screen route under /panel, in menu order. */
export const PANEL_SCREENS = MENU.flatMap((g) => g.items.flatMap((i) => (i.children ? i.children : [i])));
