import type { ComponentType } from 'react';
import type { MenuGroupId, Screen, ScreenMenu } from '../lib/screen';

export interface MenuLeaf {
  type: 'item';
  id: string;
  url: string;
  icon?: ComponentType;
  external?: boolean;
  target?: '_blank';
}
export interface MenuCollapse {
  type: 'collapse';
  id: string;
  children: MenuLeaf[];
}
export interface MenuGroup {
  type: 'group';
  id: MenuGroupId;
  children: (MenuLeaf | MenuCollapse)[];
}

/** The sidebar skeleton of console-spec §2: groups in order, and where each collapse sits in its group. */
export const MENU_GROUPS: readonly MenuGroupId[] = ['dashboard', 'setting', 'billing', 'usage'];
export const COLLAPSES: Record<string, { group: MenuGroupId; order: number }> = {
  operation: { group: 'setting', order: 30 },
  paySetting: { group: 'setting', order: 40 },
};

/** Who is looking beyond admin or not: root, and the site-info switches some items need. */
export interface MenuViewer {
  root?: boolean;
  site?: Partial<Record<NonNullable<ScreenMenu['siteFlag']>, boolean>>;
}

function allowed(s: Screen, admin: boolean, viewer: MenuViewer): boolean {
  if (s.access === 'admin' && !admin) return false;
  if (s.access === 'root' && !viewer.root) return false;
  return !s.menu?.siteFlag || Boolean(viewer.site?.[s.menu.siteFlag]);
}

/** Builds the role-filtered menu from the screens; empty collapses and groups are dropped. Pure. */
export function buildMenu(screens: readonly Screen[], admin: boolean, viewer: MenuViewer = {}): MenuGroup[] {
  const visible = screens.filter((s) => s.menu && allowed(s, admin, viewer));
  const leaf = (s: Screen): MenuLeaf => ({
    type: 'item',
    id: s.id,
    url: s.menu!.url ?? s.path,
    icon: s.menu!.icon,
    external: s.menu!.external,
    target: s.menu!.target,
  });
  const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order;
  return MENU_GROUPS.map((group) => {
    const entries: { order: number; entry: MenuLeaf | MenuCollapse }[] = visible
      .filter((s) => s.menu!.group === group && !s.menu!.parent)
      .map((s) => ({ order: s.menu!.order, entry: leaf(s) }));
    for (const [id, c] of Object.entries(COLLAPSES)) {
      if (c.group !== group) continue;
      const children = visible.filter((s) => s.menu!.parent === id).sort((a, b) => byOrder(a.menu!, b.menu!));
      if (children.length) entries.push({ order: c.order, entry: { type: 'collapse', id, children: children.map(leaf) } });
    }
    return { type: 'group' as const, id: group, children: entries.sort(byOrder).map((e) => e.entry) };
  }).filter((g) => g.children.length > 0);
}

export interface Trail {
  group: MenuGroup;
  collapse?: MenuCollapse;
  item: MenuLeaf;
}

/** The menu position of a path (for breadcrumbs and the opened collapse), or null. */
export function findTrail(menu: readonly MenuGroup[], pathname: string): Trail | null {
  const path = pathname.replace(/\/+$/, '');
  for (const group of menu) {
    for (const entry of group.children) {
      if (entry.type === 'item' && entry.url === path) return { group, item: entry };
      if (entry.type === 'collapse') {
        const item = entry.children.find((c) => c.url === path);
        if (item) return { group, collapse: entry, item };
      }
    }
  }
  return null;
}

/** A menu url matches its own path and the paths below it (`/panel/invoice/detail/…`). */
export const isCurrentUrl = (pathname: string, url: string) => pathname === url || pathname.startsWith(`${url}/`);

/** The group holding the screen at `pathname` (opened in the sidebar while the others fold), or null. */
export function groupOf(menu: readonly MenuGroup[], pathname: string): MenuGroupId | null {
  const path = pathname.replace(/\/+$/, '');
  const here = (item: MenuLeaf) => !item.external && isCurrentUrl(path, item.url);
  const group = menu.find((g) => g.children.some((e) => (e.type === 'item' ? here(e) : e.children.some(here))));
  return group?.id ?? null;
}
