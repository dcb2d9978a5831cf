import type { McpAuth } from '@one-hub/contract';
import { seal, unseal } from '../common/seal.js';
import { parseJsonOr } from '../common/json.js';
import type { AppContext } from '../app-context.js';
import type { McpServerRow } from '../db/repos/mcp-servers.js';

/** What the gateway sends an upstream MCP server: header values and the credential mode (sealed at rest). */
export interface McpCredentials {
  headers: Record<string, string>;
  auth: McpAuth;
}

export function sealHeaders(ctx: AppContext, headers: Record<string, string>): string {
  return seal(ctx.mcpKey, JSON.stringify(headers));
}

export function sealAuth(ctx: AppContext, auth: McpAuth): string {
  return seal(ctx.mcpKey, JSON.stringify(auth));
}

/** A row's credentials in plain text; only the upstream client reads them. */
export function credentialsOf(ctx: AppContext, row: McpServerRow): McpCredentials {
  const headers = row.headers ? parseJsonOr<Record<string, string>>(unseal(ctx.mcpKey, row.headers), {}) : {};
  const auth = row.auth ? parseJsonOr<McpAuth>(unseal(ctx.mcpKey, row.auth), { type: 'none' }) : { type: 'none' as const };
  return { headers, auth };
}

/** Every secret value of a server's credentials, so failure texts can be scrubbed of them. */
export function secretValues(creds: McpCredentials): string[] {
  const out = Object.values(creds.headers).filter((v) => v.length >= 4);
  if (creds.auth.type === 'bearer') out.push(creds.auth.token);
  if (creds.auth.type === 'oauth-client-credentials') out.push(creds.auth.client_secret);
  return out;
}
