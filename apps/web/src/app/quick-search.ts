import type { MenuGroup, MenuLeaf } from './menu';

export interface QuickTarget {
  kind: 'screen' | 'channel' | 'token' | 'user';
  label: string;
  url: string;
}

/** Every in-console screen of the menu, collapses opened up. */
export function menuLeaves(menu: readonly MenuGroup[]): MenuLeaf[] {
  return menu.flatMap((g) => g.children.flatMap((c) => (c.type === 'collapse' ? c.children : [c]))).filter((l) => !l.external);
}

/** Screens whose translated name (or id) contains the query, case-insensitive; all of them for an empty query. */
export function matchScreens(leaves: MenuLeaf[], query: string, name: (id: string) => string): QuickTarget[] {
  const q = query.trim().toLowerCase();
  return leaves
    .map((l) => ({ kind: 'screen' as const, label: name(l.id), url: l.url, id: l.id }))
    .filter((s) => !q || s.label.toLowerCase().includes(q) || s.id.toLowerCase().includes(q))
    .map(({ kind, label, url }) => ({ kind, label, url }));
}

/** A named record's target: its list page filtered to it (the pages read `?q=`). */
export function recordTarget(kind: 'channel' | 'token' | 'user', name: string): QuickTarget {
  return { kind, label: name, url: `/panel/${kind}?q=${encodeURIComponent(name)}` };
}
