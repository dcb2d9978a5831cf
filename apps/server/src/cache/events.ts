/**
 * Pub/sub channels on SharedStore. Every write to the table publishes on its
 * channel (message: the changed id, or '' for "reload all"); every node,
 * including the writer, drops or rebuilds its in-memory copy.
 */
export const EVENTS = {
  tokens: 'tokens:changed',
  users: 'users:changed',
  channels: 'channels:changed',
  prices: 'prices:changed',
  userGroups: 'user_groups:changed',
  options: 'options:changed',
  /** '' : plans changed (reload all); `<userId>`: that user's subscriptions or fallback switch changed. */
  plans: 'plans:changed',
  /** `kind:ownerId`: every lease on that balance was revoked (docs/decisions/0017-quota-leases.md). */
  leases: 'quota_leases:revoked',
  /** `<responseId>`: cancel that background response wherever the gateway runs it. */
  backgroundCancel: 'background_responses:cancel',
  /** `kind:ownerId:node`: that node found the balance short; idle slices other nodes keep of it go back. */
  leaseWanted: 'quota_leases:wanted',
  /** `<serverId>` or '': an MCP server or its catalogue changed; every node drops its copy. */
  mcpServers: 'mcp_servers:changed',
} as const;
