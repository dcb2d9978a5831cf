import { describe, expect, it } from 'vitest';
import { CreateMcpServerBody } from '@one-hub/contract';
import { entitled, exposedName, groupAllowed, resolveName } from './entitlements.js';
import type { McpServerRow } from '../db/repos/mcp-servers.js';

const row = (name: string, extra: Partial<McpServerRow> = {}): McpServerRow =>
  ({
    id: 1, name, transport: 'streamable-http', url: 'http://x', header_names: '[]', headers: null, auth_type: 'none', auth: null, groups: '', price: 0,
    timeout_ms: 1000, enabled: 1, catalogue: JSON.stringify({ tools: [{ name: 'a', description: '', input_schema: {} }, { name: 'b_c', description: '', input_schema: {} }] }),
    protocol_version: '', last_refresh_time: 0, last_error: '', created_time: 0, ...extra,
  }) as McpServerRow;

describe('MCP tool names and entitlements', () => {
  it('names <server>__<tool> and reads them back for every valid server name, even tools holding "__"', () => {
    for (const [server, tool] of [['gh', 'search'], ['a_b', '_x'], ['x-1', 'y__z'], ['s', '__']]) {
      expect(CreateMcpServerBody.shape.name.safeParse(server).success).toBe(true);
      expect(resolveName(exposedName(server, tool, ''), '')).toEqual({ server, tool });
    }
    // The names that would make two pairs spell one string are refused.
    for (const bad of ['a__b', 'x_', 'Upper']) expect(CreateMcpServerBody.shape.name.safeParse(bad).success).toBe(false);
    expect(exposedName('gh', 'search', 'gh')).toBe('search');
    expect(resolveName('search', 'gh')).toEqual({ server: 'gh', tool: 'search' });
    expect(resolveName('nosep', '')).toBeUndefined();
  });

  it('lets a group through when the list is empty or names it; filters tools by the token patterns', () => {
    expect(groupAllowed('', 'default')).toBe(true);
    expect(groupAllowed('vip, default', 'default')).toBe(true);
    expect(groupAllowed('vip', 'default')).toBe(false);
    const rows = [row('one'), row('two', { groups: 'vip' }), row('off', { enabled: 0 })];
    expect(entitled(rows, 'default', '', '').map((s) => s.row.name)).toEqual(['one']);
    expect(entitled(rows, 'vip', 'two/b_*', '').map((s) => [s.row.name, s.tools.map((t) => t.name)])).toEqual([['one', []], ['two', ['b_c']]]);
    expect(entitled(rows, 'vip', '', 'two').map((s) => s.row.name)).toEqual(['two']);
  });
});
