import { z } from 'zod';
import { text } from './format/text.js';

/** How the gateway reaches an upstream MCP server. stdio only when MCP_ALLOW_STDIO is set on the server. */
export const MCP_TRANSPORTS = ['streamable-http', 'sse', 'stdio'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** Credential modes; the secret parts are sealed at rest and never returned. */
export const McpAuth = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('bearer'), token: text().min(1).max(4096) }),
  z.object({
    type: z.literal('oauth-client-credentials'),
    token_url: text().trim().url().max(2048),
    client_id: text().trim().min(1).max(512),
    client_secret: text().min(1).max(4096),
    scope: text().trim().max(1024).default(''),
  }),
]);
export type McpAuth = z.infer<typeof McpAuth>;

export interface McpTool {
  name: string;
  description: string;
  input_schema: unknown;
}

export interface McpCatalogue {
  tools: McpTool[];
  resources: { uri: string; name: string; description: string; mime_type: string }[];
  prompts: { name: string; description: string }[];
}

/** The admin's view of a server: secrets masked (headers show names only, auth its type). */
export interface McpServer {
  id: number;
  /** Lower-case identifier used as the tool prefix and in /mcp/{name}. */
  name: string;
  transport: McpTransport;
  /** URL for HTTP transports; the command line for stdio. */
  url: string;
  /** Header names the gateway sends; values never leave the server. */
  header_names: string[];
  auth_type: McpAuth['type'];
  groups: string;
  /** Quota charged per tools/call (0 = free). */
  price: number;
  /** Per-call timeout in milliseconds. */
  timeout_ms: number;
  enabled: boolean;
  tool_count: number;
  tools: McpTool[];
  /** Negotiated upstream protocol revision at the last refresh ('' before the first). */
  protocol_version: string;
  last_refresh_time: number;
  /** The last refresh's error ('' when it succeeded). */
  last_error: string;
  created_time: number;
}

const serverName = text()
  .trim()
  .min(1, 'name is required')
  .max(32, 'name must be at most 32 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'name may hold only a-z, 0-9, "_" and "-", and must start with a letter or digit')
  // `/mcp` names a tool `<server>__<tool>`: a name without "__" and not ending in "_" makes that unambiguous.
  .refine((n) => !n.includes('__') && !n.endsWith('_'), 'name may not contain "__" nor end with "_"');

const mcpServerFields = {
  name: serverName,
  transport: z.enum(MCP_TRANSPORTS).default('streamable-http'),
  url: text().trim().min(1, 'url is required').max(2048),
  /** Header values to send upstream; on update, omit to keep the stored ones. */
  headers: z.record(text().trim().min(1).max(128), text().max(8192)).optional(),
  auth: McpAuth.optional(),
  groups: text().trim().max(255).default(''),
  price: z.coerce.number().int().min(0, 'price must not be negative').default(0),
  timeout_ms: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  enabled: z.boolean().default(true),
};

export const CreateMcpServerBody = z.object(mcpServerFields);
export type CreateMcpServerBody = z.infer<typeof CreateMcpServerBody>;

export const UpdateMcpServerBody = z.object({
  id: z.coerce.number().int().positive(),
  name: serverName.optional(),
  transport: z.enum(MCP_TRANSPORTS).optional(),
  url: mcpServerFields.url.optional(),
  headers: mcpServerFields.headers,
  auth: McpAuth.optional(),
  groups: text().trim().max(255).optional(),
  price: z.coerce.number().int().min(0, 'price must not be negative').optional(),
  timeout_ms: z.coerce.number().int().min(1000).max(600_000).optional(),
  enabled: z.boolean().optional(),
});
export type UpdateMcpServerBody = z.infer<typeof UpdateMcpServerBody>;

/**
 * A token's MCP allow list: comma-separated `server/tool` patterns, `*` as a wildcard
 * (`github/*`, `*\/search`, `*`); empty means every tool the token's group may use.
 */
export const McpToolPatterns = text()
  .trim()
  .max(2048)
  .refine(
    (s) => s === '' || s.split(',').every((p) => /^[a-z0-9_*-]+\/[A-Za-z0-9_.*-]+$/.test(p.trim())),
    'mcp_tools must be comma-separated server/tool patterns, e.g. github/*,search/web_search',
  );

/** The separator of `/mcp`'s tool names (`<server>__<tool>`); server names hold no "__" and do not end in "_". */
export const MCP_TOOL_SEPARATOR = '__';

/** Whether `server/tool` matches one of the comma-separated patterns ('' matches everything). */
export function mcpToolAllowed(patterns: string, server: string, tool: string): boolean {
  if (patterns.trim() === '') return true;
  const target = `${server}/${tool}`;
  return patterns.split(',').some((p) => {
    const re = new RegExp(`^${p.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    return re.test(target);
  });
}
