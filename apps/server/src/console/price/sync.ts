import type { PriceSyncMode } from '@one-hub/contract';

export interface SyncPlan<T> {
  /** Stored models to delete before inserting. */
  remove: string[];
  insert: T[];
}

/**
 * What a price sync changes (api.md §21.1). `system`/`add`: only models without a
 * price; `update`: replace unlocked existing models only; `overwrite`: drop every
 * unlocked price and insert everything except models locked locally.
 */
export function planPriceSync<T extends { model: string }>(stored: Array<{ model: string; locked: boolean }>, incoming: T[], mode: PriceSyncMode): SyncPlan<T> {
  const existing = new Map(stored.map((p) => [p.model, p.locked]));
  const unique = [...new Map(incoming.map((p) => [p.model, p])).values()];
  if (mode === 'update') {
    const replace = unique.filter((p) => existing.get(p.model) === false);
    return { remove: replace.map((p) => p.model), insert: replace };
  }
  if (mode === 'overwrite') {
    return {
      remove: stored.filter((p) => !p.locked).map((p) => p.model),
      insert: unique.filter((p) => existing.get(p.model) !== true),
    };
  }
  return { remove: [], insert: unique.filter((p) => !existing.has(p.model)) };
}
