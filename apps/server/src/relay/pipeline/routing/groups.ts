import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { readModelLimits, type ModelLimits } from '@one-hub/contract';
import { listAllUserGroups, type UserGroupRow } from '../../../db/repos/user-groups.js';

/** Enabled user groups in memory, reloaded whenever any node edits one. */
export class GroupTable {
  private groups = new Map<string, UserGroupRow>();
  private modelLimits = new Map<string, ModelLimits>();

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.userGroups, () => this.load());
  }

  async load(): Promise<void> {
    const rows = await listAllUserGroups(this.ctx.db);
    const enabled = rows.filter((g) => g.enable !== 0);
    this.groups = new Map(enabled.map((g) => [g.symbol, g]));
    this.modelLimits = new Map(enabled.flatMap((g) => {
      const limits = readModelLimits(g.model_limits);
      return limits ? [[g.symbol, limits] as const] : [];
    }));
  }

  /** The group's per-model request limits (parsed once per load); undefined when it has none. */
  limitsOf(symbol: string): ModelLimits | undefined {
    return this.modelLimits.get(symbol);
  }

  get(symbol: string): UserGroupRow | undefined {
    return this.groups.get(symbol);
  }
}
