import type { AppContext } from '../../app-context.js';
import { EVENTS } from '../../cache/events.js';
import { listAllUserGroups, type UserGroupRow } from '../../db/repos/user-groups.js';

/** Enabled user groups in memory, reloaded whenever any node edits one. */
export class GroupTable {
  private groups = new Map<string, UserGroupRow>();

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.userGroups, () => this.load());
  }

  async load(): Promise<void> {
    const rows = await listAllUserGroups(this.ctx.db);
    this.groups = new Map(rows.filter((g) => g.enable !== 0).map((g) => [g.symbol, g]));
  }

  get(symbol: string): UserGroupRow | undefined {
    return this.groups.get(symbol);
  }
}
