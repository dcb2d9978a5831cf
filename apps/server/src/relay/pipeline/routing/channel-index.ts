import type { ChannelRow } from '../../../db/repos/channels.js';

/**
 * Routing index: for each group and model, the serving channels in priority
 * tiers (highest first). Built from enabled channels; a pure structure, so it
 * is rebuilt wholesale on change rather than patched.
 *
 * Wildcards (`gpt-4*`) join the exact entries instead of being hidden by them,
 * and are ordered by longest prefix, so resolution is deterministic.
 */
export interface IndexedChannel {
  row: ChannelRow;
  weight: number;
  priority: number;
  onlyChat: boolean;
  disabledStream: Set<string>;
}

const MAX_CACHED_TIERS = 10_000;

export class ChannelIndex {
  private readonly exact = new Map<string, Map<string, IndexedChannel[]>>();
  private readonly wildcards = new Map<string, Array<{ prefix: string; channels: IndexedChannel[] }>>();
  readonly byId = new Map<number, IndexedChannel>();
  /** tiers() per group and model, computed once per index (the index never changes; a new one replaces it). */
  private readonly tierCache = new Map<string, IndexedChannel[][]>();

  constructor(rows: ChannelRow[]) {
    for (const row of rows) {
      const entry: IndexedChannel = {
        row,
        weight: row.weight && row.weight > 0 ? row.weight : 1,
        priority: row.priority ?? 0,
        onlyChat: row.only_chat === 1,
        disabledStream: new Set(parseList(row.disabled_stream)),
      };
      this.byId.set(row.id, entry);
      for (const group of splitList(row.group)) {
        for (const model of splitList(row.models ?? '')) {
          if (model.endsWith('*')) {
            const list = this.wildcards.get(group) ?? [];
            const prefix = model.slice(0, -1);
            let slot = list.find((w) => w.prefix === prefix);
            if (!slot) list.push((slot = { prefix, channels: [] }));
            slot.channels.push(entry);
            this.wildcards.set(group, list);
          } else {
            const models = this.exact.get(group) ?? new Map<string, IndexedChannel[]>();
            models.set(model, [...(models.get(model) ?? []), entry]);
            this.exact.set(group, models);
          }
        }
      }
    }
    for (const list of this.wildcards.values()) list.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Every channel of the group serving the model, highest priority tier first. */
  tiers(group: string, model: string): IndexedChannel[][] {
    const key = `${group}\n${model}`;
    let tiers = this.tierCache.get(key);
    if (tiers) return tiers;
    tiers = this.computeTiers(group, model);
    // Callers may name any model: the cache is bounded, not a memory leak.
    if (this.tierCache.size >= MAX_CACHED_TIERS) this.tierCache.clear();
    this.tierCache.set(key, tiers);
    return tiers;
  }

  private computeTiers(group: string, model: string): IndexedChannel[][] {
    const found = new Set<IndexedChannel>(this.exact.get(group)?.get(model) ?? []);
    for (const w of this.wildcards.get(group) ?? []) if (model.startsWith(w.prefix)) w.channels.forEach((c) => found.add(c));
    const byPriority = new Map<number, IndexedChannel[]>();
    for (const c of found) byPriority.set(c.priority, [...(byPriority.get(c.priority) ?? []), c]);
    return [...byPriority.entries()].sort((a, b) => b[0] - a[0]).map(([, list]) => list);
  }

  /** Whether a channel of any group serves the model (exactly or by a wildcard). */
  servesAnywhere(model: string): boolean {
    for (const models of this.exact.values()) if (models.has(model)) return true;
    for (const list of this.wildcards.values()) if (list.some((w) => model.startsWith(w.prefix))) return true;
    return false;
  }

  /** Model names (as declared, wildcards included) the group can reach. */
  models(group: string): string[] {
    const names = new Set<string>(this.exact.get(group)?.keys() ?? []);
    for (const w of this.wildcards.get(group) ?? []) names.add(`${w.prefix}*`);
    return [...names].sort();
  }
}

export function splitList(text: string | null): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseList(text: string | null): string[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Weighted random draw (relay.md §3.5); `random` is injectable for tests. */
export function pickWeighted<T extends { weight: number }>(items: T[], random = Math.random): T | undefined {
  if (items.length <= 1) return items[0];
  const total = items.reduce((sum, c) => sum + c.weight, 0);
  let r = random() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1];
}
