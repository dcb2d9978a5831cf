import { randomUUID } from 'node:crypto';

/** A downstream session (revisions 2025-06-18 and 2025-11-25): this node only, bound to one token and one scope. */
export interface McpSession {
  id: string;
  tokenId: number;
  /** '' for /mcp, the server name for /mcp/{server}. */
  scope: string;
  protocolVersion: string;
  lastUsed: number;
}

const IDLE_MS = 60 * 60 * 1000;
const MAX_SESSIONS = 20_000;

export class McpSessions {
  private sessions = new Map<string, McpSession>();

  open(tokenId: number, scope: string, protocolVersion: string): McpSession {
    this.prune();
    const s: McpSession = { id: randomUUID(), tokenId, scope, protocolVersion, lastUsed: Date.now() };
    this.sessions.set(s.id, s);
    return s;
  }

  /** The session when it exists, is live and belongs to this token and scope; another token's id is unknown here. */
  find(id: string, tokenId: number, scope: string): McpSession | undefined {
    const s = this.sessions.get(id);
    if (!s || s.tokenId !== tokenId || s.scope !== scope) return undefined;
    if (Date.now() - s.lastUsed > IDLE_MS) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastUsed = Date.now();
    return s;
  }

  close(id: string): void {
    this.sessions.delete(id);
  }

  private prune(): void {
    if (this.sessions.size < MAX_SESSIONS) return;
    const now = Date.now();
    for (const [id, s] of this.sessions) if (now - s.lastUsed > IDLE_MS) this.sessions.delete(id);
    // Still full: the oldest go first (Map keeps insertion order).
    for (const id of this.sessions.keys()) {
      if (this.sessions.size < MAX_SESSIONS) break;
      this.sessions.delete(id);
    }
  }
}
