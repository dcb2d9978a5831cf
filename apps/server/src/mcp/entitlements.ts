import { MCP_TOOL_SEPARATOR, mcpToolAllowed, type McpTool } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { EVENTS } from '../cache/events.js';
import { listMcpServers, type McpServerRow } from '../db/repos/mcp-servers.js';
import { catalogueOf } from './catalogue.js';

/** The servers and their catalogues, read from the database and dropped on every change (all nodes hear it). */
export class McpServerCache {
  private rows?: Promise<McpServerRow[]>;
  private loadedAt = 0;
  private static readonly TTL_MS = 30_000;

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.mcpServers, () => (this.rows = undefined));
    ctx.store.onRecover(() => (this.rows = undefined));
  }

  all(): Promise<McpServerRow[]> {
    if (!this.rows || Date.now() - this.loadedAt > McpServerCache.TTL_MS) {
      this.loadedAt = Date.now();
      const pending = listMcpServers(this.ctx.db);
      pending.catch(() => (this.rows = undefined));
      this.rows = pending;
    }
    return this.rows;
  }
}

export interface EntitledServer {
  row: McpServerRow;
  tools: McpTool[];
}

/** '' = every group; else the comma-separated list must name the caller's group. */
export function groupAllowed(groups: string, group: string): boolean {
  const list = groups.split(',').map((g) => g.trim()).filter(Boolean);
  return list.length === 0 || list.includes(group);
}

/**
 * What a token may use: enabled servers its group may reach (one server when `scope` names it),
 * each with the catalogue's tools its `mcp_tools` patterns allow. A tool outside this is neither
 * listed nor callable.
 */
export function entitled(rows: McpServerRow[], group: string, patterns: string, scope: string): EntitledServer[] {
  const out: EntitledServer[] = [];
  for (const row of rows) {
    if (row.enabled !== 1 || (scope && row.name !== scope) || !groupAllowed(row.groups, group)) continue;
    const tools = catalogueOf(row).tools.filter((t) => mcpToolAllowed(patterns, row.name, t.name));
    out.push({ row, tools });
  }
  return out;
}

/** `/mcp` names tools `<server>__<tool>`; `/mcp/{server}` uses the tool's own name. */
export const exposedName = (server: string, tool: string, scope: string) => (scope ? tool : `${server}${MCP_TOOL_SEPARATOR}${tool}`);

/** The server and tool an exposed name means (the first "__" ends the server name: names hold none). */
export function resolveName(name: string, scope: string): { server: string; tool: string } | undefined {
  if (scope) return { server: scope, tool: name };
  const at = name.indexOf(MCP_TOOL_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + MCP_TOOL_SEPARATOR.length) };
}
