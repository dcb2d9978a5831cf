import type { McpCatalogue, McpTool } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../common/time.js';
import { parseJsonOr } from '../common/json.js';
import { scrubText } from '../egress/scrub.js';
import { EVENTS } from '../cache/events.js';
import { findMcpServerById, listMcpServers, updateMcpServer, type McpServerRow } from '../db/repos/mcp-servers.js';
import { credentialsOf, secretValues } from './credentials.js';
import { asUpstreamFailure, connectUpstream } from './upstream.js';

const EMPTY: McpCatalogue = { tools: [], resources: [], prompts: [] };
/** Pages of a list read at most (a server that never stops paging is cut here). */
const MAX_PAGES = 20;

export function catalogueOf(row: McpServerRow): McpCatalogue {
  const c = parseJsonOr<McpCatalogue>(row.catalogue, EMPTY);
  return { tools: c.tools ?? [], resources: c.resources ?? [], prompts: c.prompts ?? [] };
}

export interface RefreshOutcome {
  ok: boolean;
  row: McpServerRow;
}

/**
 * Reads a server's tools (and resources and prompts when it has them) and stores them with the
 * negotiated revision and the time, so every node serves the same list; a failure keeps the last
 * catalogue and stores the error (scrubbed of the server's credentials) for the admin.
 */
export async function refreshCatalogue(ctx: AppContext, row: McpServerRow): Promise<RefreshOutcome> {
  let upstream: Awaited<ReturnType<typeof connectUpstream>> | undefined;
  try {
    upstream = await connectUpstream(ctx, row, row.timeout_ms, true);
    const { client } = upstream;
    const opts = { timeout: row.timeout_ms };
    const caps = client.getServerCapabilities() ?? {};
    const tools: McpTool[] = [];
    if (caps.tools) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const res = await client.listTools(cursor ? { cursor } : undefined, opts);
        for (const t of res.tools) tools.push({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema });
        cursor = res.nextCursor;
        if (!cursor) break;
      }
    }
    const resources: McpCatalogue['resources'] = [];
    if (caps.resources) {
      const res = await client.listResources(undefined, opts);
      for (const r of res.resources) resources.push({ uri: r.uri, name: r.name, description: r.description ?? '', mime_type: r.mimeType ?? '' });
    }
    const prompts: McpCatalogue['prompts'] = [];
    if (caps.prompts) {
      const res = await client.listPrompts(undefined, opts);
      for (const p of res.prompts) prompts.push({ name: p.name, description: p.description ?? '' });
    }
    const patch = { catalogue: JSON.stringify({ tools, resources, prompts }), protocol_version: upstream.protocolVersion, last_refresh_time: nowSeconds(), last_error: '' };
    await updateMcpServer(ctx.db, row.id, patch);
    await ctx.store.publish(EVENTS.mcpServers, String(row.id));
    return { ok: true, row: { ...row, ...patch } };
  } catch (error) {
    const failure = asUpstreamFailure(error, upstream?.tooLarge ?? false);
    const text = scrubText(`${failure.kind}: ${failure.message}`, secretValues(credentialsOf(ctx, row)), true).slice(0, 2000);
    const patch = { last_refresh_time: nowSeconds(), last_error: text };
    await updateMcpServer(ctx.db, row.id, patch);
    await ctx.store.publish(EVENTS.mcpServers, String(row.id));
    return { ok: false, row: { ...row, ...patch } };
  } finally {
    await upstream?.close();
  }
}

/** The scheduled refresh: every enabled server, one at a time. */
export async function refreshAllCatalogues(ctx: AppContext): Promise<string> {
  let ok = 0;
  let failed = 0;
  for (const row of await listMcpServers(ctx.db)) {
    if (!row.enabled) continue;
    const fresh = await findMcpServerById(ctx.db, row.id);
    if (!fresh) continue;
    if ((await refreshCatalogue(ctx, fresh)).ok) ok++;
    else failed++;
  }
  return `refreshed ${ok}, failed ${failed}`;
}
