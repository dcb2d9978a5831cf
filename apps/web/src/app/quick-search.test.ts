import { describe, expect, it } from 'vitest';
import type { MenuGroup } from './menu';
import { matchScreens, menuLeaves, recordTarget } from './quick-search';

const menu: MenuGroup[] = [
  { type: 'group', id: 'dashboard', children: [{ type: 'item', id: 'dashboard', url: '/panel/dashboard' }, { type: 'item', id: 'chat', url: 'https://chat.example', external: true }] },
  { type: 'group', id: 'setting', children: [{ type: 'item', id: 'channel', url: '/panel/channel' }, { type: 'collapse', id: 'operation', children: [{ type: 'item', id: 'pricing', url: '/panel/pricing' }] }] },
];
const names: Record<string, string> = { dashboard: '仪表盘', channel: '渠道', pricing: '模型价格' };

describe('quick search', () => {
  it('lists every in-console screen, inside collapses too, without external links', () => {
    expect(menuLeaves(menu).map((l) => l.id)).toEqual(['dashboard', 'channel', 'pricing']);
  });

  it('matches screens by their translated name or id', () => {
    const leaves = menuLeaves(menu);
    expect(matchScreens(leaves, '价格', (id) => names[id])).toEqual([{ kind: 'screen', label: '模型价格', url: '/panel/pricing' }]);
    expect(matchScreens(leaves, 'CHAN', (id) => names[id]).map((s) => s.url)).toEqual(['/panel/channel']);
    expect(matchScreens(leaves, ' ', (id) => names[id])).toHaveLength(3);
  });

  it('jumps to a record through its filtered list', () => {
    expect(recordTarget('channel', 'a b&c')).toEqual({ kind: 'channel', label: 'a b&c', url: '/panel/channel?q=a%20b%26c' });
  });
});
