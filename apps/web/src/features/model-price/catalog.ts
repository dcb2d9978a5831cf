import type { AvailableModel, ModelInfo, PriceEntry, PriceTierEntry, UserGroup } from '@one-hub/contract';

export const MODALITIES = ['audio', 'image', 'music', 'text', 'video'] as const;
export type Unit = 'K' | 'M';

export interface CatalogModel {
  id: string;
  name: string;
  description: string;
  owner: string;
  groups: string[];
  price: PriceEntry;
  /** No price record (billed at the default price). */
  unpriced: boolean;
  inputModalities: string[];
  outputModalities: string[];
  tags: string[];
  contextLength: number;
  maxTokens: number;
}

function list(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Joins the available models with their model info (either embedded in the price or from /api/model_info/). */
export function buildCatalog(models: Record<string, AvailableModel>, infos: ModelInfo[]): CatalogModel[] {
  const byModel = new Map(infos.map((i) => [i.model, i]));
  return Object.entries(models)
    .map(([id, m]) => {
      const embedded = m.price.model_info;
      const info = byModel.get(id);
      return {
        id,
        name: embedded?.name || info?.name || id,
        description: embedded?.description ?? info?.description ?? '',
        owner: m.owned_by,
        groups: m.groups,
        price: m.price,
        unpriced: Boolean(m.unpriced),
        inputModalities: embedded?.input_modalities ?? list(info?.input_modalities),
        outputModalities: embedded?.output_modalities ?? list(info?.output_modalities),
        tags: embedded?.tags ?? list(info?.tags),
        contextLength: embedded?.context_length ?? info?.context_length ?? 0,
        maxTokens: embedded?.max_tokens ?? info?.max_tokens ?? 0,
      };
    })
    .sort((a, b) => a.owner.localeCompare(b.owner) || a.id.localeCompare(b.id));
}

export interface CatalogFilters {
  search: string;
  owner: string;
  modality: string;
  tag: string;
  /** Only models the selected group may use. */
  onlyGroup: boolean;
}
export const NO_CATALOG_FILTERS: CatalogFilters = { search: '', owner: '', modality: '', tag: '', onlyGroup: false };

export function filterCatalog(rows: CatalogModel[], f: CatalogFilters, group: string): CatalogModel[] {
  const q = f.search.trim().toLowerCase();
  return rows.filter(
    (m) =>
      (!q || m.id.toLowerCase().includes(q) || m.name.toLowerCase().includes(q) || m.description.toLowerCase().includes(q)) &&
      (!f.owner || m.owner === f.owner) &&
      (!f.modality || m.inputModalities.includes(f.modality) || m.outputModalities.includes(f.modality)) &&
      (!f.tag || m.tags.includes(f.tag)) &&
      (!f.onlyGroup || !group || m.groups.includes(group)),
  );
}

/** Dollars for a rate under a group ratio, 6 significant digits; null means free. */
export function groupPrice(rate: number, ratio: number, unit: Unit, type: PriceEntry['type']): number | null {
  const usd = rate * ratio * 0.002 * (type === 'times' ? 1 : unit === 'M' ? 1000 : 1);
  if (usd === 0) return null;
  return Number(usd.toPrecision(6));
}

/** The usage-class ratios a price applies: the base price's, or for a tier its own over them (a class it leaves out follows the base). */
export function ratiosOf(price: PriceEntry, tier?: PriceTierEntry): [string, number][] {
  return Object.entries({ ...price.extra_ratios, ...tier?.extra_ratios });
}

export function allTags(rows: CatalogModel[]): string[] {
  return [...new Set(rows.flatMap((m) => m.tags))].sort();
}

/** Groups in the map's order (console-screens §3.14). */
export function groupOptions(map: Record<string, UserGroup>): UserGroup[] {
  return Object.values(map);
}

/** The group preselected: the signed-in user's own (its ratio is what they pay), else the first. */
export function initialGroup(groups: UserGroup[], userGroup: string | undefined): string {
  return groups.find((g) => g.symbol === userGroup)?.symbol ?? groups[0]?.symbol ?? '';
}
