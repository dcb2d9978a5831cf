import type { PriceEntry } from '@one-hub/contract';
import { formatNumber } from '../../lib/format-number';

/** 1 rate unit = $0.002 per 1K tokens = ¥0.014 per 1K (console-screens §3.12). */
export const USD_PER_RATE = 0.002;
export const RMB_PER_RATE = 0.014;
export type PriceUnit = 'K' | 'M';
export type EntryUnit = 'rate' | 'USD' | 'RMB';


const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** A rate as dollars per 1K or 1M tokens (per call for `times`). */
export function rateToUsd(rate: number, unit: PriceUnit, type: PriceEntry['type'] = 'tokens'): number {
  if (type === 'times') return round(rate * USD_PER_RATE, 6);
  return round(rate * USD_PER_RATE * (unit === 'M' ? 1000 : 1), 6);
}

/** What the admin typed (rate, or USD / RMB per 1K or 1M) → the stored rate, 4 decimals. */
export function entryToRate(value: number, entry: EntryUnit, unit: PriceUnit): number {
  if (entry === 'rate') return value;
  const perK = unit === 'M' ? value / 1000 : value;
  return round(perK / (entry === 'USD' ? USD_PER_RATE : RMB_PER_RATE), 4);
}

/** "$0.0025 / 1K", "$2.5 / 1M", "$0.02" per call, or null for free. */
export function priceText(rate: number, unit: PriceUnit, type: PriceEntry['type']): string | null {
  if (rate === 0) return null;
  const usd = rateToUsd(rate, unit, type);
  return type === 'times' ? `$${usd}` : `$${usd} / 1${unit}`;
}

export interface PriceFilters {
  search: string;
  type: '' | 'tokens' | 'times';
  owner: number;
  locked: '' | 'locked' | 'unlocked';
}
export const NO_PRICE_FILTERS: PriceFilters = { search: '', type: '', owner: 0, locked: '' };

export function filterPrices(rows: PriceEntry[], f: PriceFilters, ownerName: (id: number) => string): PriceEntry[] {
  const q = f.search.trim().toLowerCase();
  return rows.filter(
    (p) =>
      (!q || p.model.toLowerCase().includes(q) || ownerName(p.channel_type).toLowerCase().includes(q)) &&
      (!f.type || p.type === f.type) &&
      (!f.owner || p.channel_type === f.owner) &&
      (!f.locked || (f.locked === 'locked') === Boolean(p.locked)),
  );
}

export interface PriceGroup {
  key: string;
  type: PriceEntry['type'];
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios: Record<string, number>;
  tiers?: PriceEntry['tiers'];
  service_ratios?: PriceEntry['service_ratios'];
  models: string[];
}

const ratioKey = (r?: Record<string, number>) =>
  JSON.stringify(
    Object.entries(r ?? {})
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/** The multiple tab: rows sharing type, provider, input, output, extra ratios and lock become one. */
export function groupPrices(rows: PriceEntry[]): PriceGroup[] {
  const groups = new Map<string, PriceGroup>();
  for (const p of rows) {
    const key = [p.type, p.channel_type, p.input, p.output, ratioKey(p.extra_ratios), Boolean(p.locked), JSON.stringify(p.tiers ?? []), ratioKey(p.service_ratios)].join('|');
    const g = groups.get(key);
    if (g) g.models.push(p.model);
    else groups.set(key, { key, type: p.type, channel_type: p.channel_type, input: p.input, output: p.output, locked: Boolean(p.locked), extra_ratios: p.extra_ratios ?? {}, ...(p.tiers?.length ? { tiers: p.tiers } : {}), ...(p.service_ratios && Object.keys(p.service_ratios).length ? { service_ratios: p.service_ratios } : {}), models: [p.model] });
  }
  return [...groups.values()];
}

/** Models the server knows (channels, prices) that have no price row. */
export function unpricedModels(all: string[], prices: PriceEntry[]): string[] {
  const priced = new Set(prices.map((p) => p.model));
  return all.filter((m) => !priced.has(m));
}

export interface PriceChange {
  field: 'type' | 'input' | 'output' | 'extra' | 'tiers' | 'service';
  from: string;
  to: string;
}

type Comparable = Pick<PriceEntry, 'type' | 'input' | 'output' | 'extra_ratios' | 'tiers' | 'service_ratios'>;
// Ratios are written as they are: grouping or rounding would hide a 0.0001.
const ratiosText = (r?: Record<string, number>) =>
  Object.entries(r ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
const tierRatios = (r?: Record<string, number>) => {
  const text = ratiosText(r);
  return text ? ` (${text})` : '';
};
const tierText = (language: string, t?: PriceEntry['tiers']) => (t?.length ? t.map((x) => `>${formatNumber(x.above, language)}: ${x.input}/${x.output}${tierRatios(x.extra_ratios)}`).join(', ') : '-');

/** What differs between two prices of one model, field by field, as the sync preview shows it. */
export function priceChanges(old: Comparable, now: Comparable, language: string): PriceChange[] {
  const changes: PriceChange[] = [];
  if (old.type !== now.type) changes.push({ field: 'type', from: old.type, to: now.type });
  if (old.input !== now.input) changes.push({ field: 'input', from: String(old.input), to: String(now.input) });
  if (old.output !== now.output) changes.push({ field: 'output', from: String(old.output), to: String(now.output) });
  if (ratioKey(old.extra_ratios) !== ratioKey(now.extra_ratios)) changes.push({ field: 'extra', from: ratiosText(old.extra_ratios) || '-', to: ratiosText(now.extra_ratios) || '-' });
  const [from, to] = [tierText(language, old.tiers), tierText(language, now.tiers)];
  if (from !== to) changes.push({ field: 'tiers', from, to });
  if (ratioKey(old.service_ratios) !== ratioKey(now.service_ratios)) changes.push({ field: 'service', from: ratiosText(old.service_ratios) || '-', to: ratiosText(now.service_ratios) || '-' });
  return changes;
}
