import type { AppContext } from '../app-context.js';
import { refreshAllCatalogues } from '../mcp/catalogue.js';
import type { JobDef } from './runner.js';

/** Re-reads every enabled MCP server's tools, resources and prompts (every MCP_REFRESH_MINUTES minutes). */
export function mcpRefreshJob(ctx: AppContext): JobDef {
  const minutes = ctx.config.MCP_REFRESH_MINUTES;
  return { name: 'mcp_refresh', schedule: minutes > 0 ? { everySeconds: minutes * 60 } : undefined, run: (c) => refreshAllCatalogues(c) };
}
