import type { CreateMcpServerBody, McpServer, UpdateMcpServerBody } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { nowSeconds } from '../common/time.js';
import { parseJsonOr } from '../common/json.js';
import { checkOutboundUrl, isEgressRefused, REFUSED_MESSAGE } from '../egress/guard.js';
import { EVENTS } from '../cache/events.js';
import {
  deleteMcpServer,
  findMcpServerById,
  findMcpServerByName,
  insertMcpServer,
  updateMcpServer,
  type McpServerRow,
} from '../db/repos/mcp-servers.js';
import { credentialsOf, sealAuth, sealHeaders } from './credentials.js';
import { catalogueOf, refreshCatalogue } from './catalogue.js';

/** The admin's view: header names only, the credential's type only (values never leave the server). */
export function toMcpServerView(row: McpServerRow): McpServer {
  const catalogue = catalogueOf(row);
  return {
    id: row.id,
    name: row.name,
    transport: row.transport as McpServer['transport'],
    url: row.url,
    header_names: parseJsonOr<string[]>(row.header_names, []),
    auth_type: row.auth_type as McpServer['auth_type'],
    groups: row.groups,
    price: row.price,
    timeout_ms: row.timeout_ms,
    enabled: row.enabled === 1,
    tool_count: catalogue.tools.length,
    tools: catalogue.tools,
    protocol_version: row.protocol_version,
    last_refresh_time: row.last_refresh_time,
    last_error: row.last_error ?? '',
    created_time: row.created_time,
  };
}

const fieldError = (path: string, message: string) => new HubError(400, message, { code: 'invalid_parameter', fields: [{ path, code: 'invalid_value', message }] });

/** stdio needs MCP_ALLOW_STDIO; an HTTP URL must be http(s) and pass the egress guard. */
async function checkTarget(ctx: AppContext, transport: string, url: string): Promise<void> {
  if (transport === 'stdio') {
    if (!ctx.config.MCP_ALLOW_STDIO) throw fieldError('transport', 'stdio MCP servers are off on this gateway (set MCP_ALLOW_STDIO=1 to allow them)');
    return;
  }
  try {
    await checkOutboundUrl(url);
  } catch (error) {
    if (isEgressRefused(error)) throw fieldError('url', REFUSED_MESSAGE);
    if ((error as { code?: string }).code === 'BAD_URL') throw fieldError('url', `url: ${(error as Error).message}`);
    // A name that does not resolve now may later: the connection is checked again when opened.
  }
}

async function checkNameFree(ctx: AppContext, name: string, id?: number): Promise<void> {
  const other = await findMcpServerByName(ctx.db, name);
  if (other && other.id !== id) throw fieldError('name', `an MCP server named ${name} already exists`);
}

const headerNames = (headers: Record<string, string>) => JSON.stringify(Object.keys(headers));

export async function createMcpServer(ctx: AppContext, body: CreateMcpServerBody): Promise<McpServer> {
  await checkTarget(ctx, body.transport, body.url);
  await checkNameFree(ctx, body.name);
  const headers = body.headers ?? {};
  const auth = body.auth ?? { type: 'none' as const };
  const id = await insertMcpServer(ctx.db, {
    name: body.name,
    transport: body.transport,
    url: body.url,
    header_names: headerNames(headers),
    headers: sealHeaders(ctx, headers),
    auth_type: auth.type,
    auth: sealAuth(ctx, auth),
    groups: normaliseGroups(body.groups),
    price: body.price,
    timeout_ms: body.timeout_ms,
    enabled: body.enabled ? 1 : 0,
    catalogue: null,
    last_error: '',
    created_time: nowSeconds(),
  });
  await ctx.store.publish(EVENTS.mcpServers, String(id));
  return toMcpServerView((await findMcpServerById(ctx.db, id))!);
}

/** New header rows; a row sent with an empty value keeps its stored value (the console never sees values). */
function headersUpdate(ctx: AppContext, row: McpServerRow, sent: Record<string, string>) {
  const stored = credentialsOf(ctx, row).headers;
  const headers = Object.fromEntries(Object.entries(sent).map(([name, value]) => [name, value === '' ? (stored[name] ?? '') : value]).filter(([, v]) => v !== ''));
  return { headers: sealHeaders(ctx, headers), header_names: headerNames(headers) };
}

export async function updateMcpServerById(ctx: AppContext, body: UpdateMcpServerBody): Promise<McpServer> {
  const row = await loadMcpServer(ctx, body.id);
  const transport = body.transport ?? row.transport;
  const url = body.url ?? row.url;
  if (body.transport !== undefined || body.url !== undefined) await checkTarget(ctx, transport, url);
  if (body.name !== undefined) await checkNameFree(ctx, body.name, row.id);
  await updateMcpServer(ctx.db, row.id, {
    name: body.name ?? row.name,
    transport,
    url,
    ...(body.headers ? headersUpdate(ctx, row, body.headers) : {}),
    ...(body.auth ? { auth: sealAuth(ctx, body.auth), auth_type: body.auth.type } : {}),
    groups: body.groups !== undefined ? normaliseGroups(body.groups) : row.groups,
    price: body.price ?? row.price,
    timeout_ms: body.timeout_ms ?? row.timeout_ms,
    enabled: body.enabled === undefined ? row.enabled : body.enabled ? 1 : 0,
  });
  await ctx.store.publish(EVENTS.mcpServers, String(row.id));
  return toMcpServerView((await findMcpServerById(ctx.db, row.id))!);
}

export async function loadMcpServer(ctx: AppContext, id: number): Promise<McpServerRow> {
  const row = await findMcpServerById(ctx.db, id);
  if (!row) throw new HubError(404, `MCP server ${id} not found`, { code: 'not_found' });
  return row;
}

export async function removeMcpServer(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteMcpServer(ctx.db, id))) throw new HubError(404, `MCP server ${id} not found`, { code: 'not_found' });
  await ctx.store.publish(EVENTS.mcpServers, String(id));
}

/** On-demand refresh: answers the server's view with its (new) tool list, or the stored error. */
export async function refreshMcpServer(ctx: AppContext, id: number): Promise<McpServer> {
  const row = await loadMcpServer(ctx, id);
  // The URL is checked again at every connection (the guard may have been switched on since it was saved).
  const { row: after } = await refreshCatalogue(ctx, row);
  return toMcpServerView(after);
}

function normaliseGroups(groups: string): string {
  return groups
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .join(',');
}
