import type { PriceEntry } from '@one-hub/contract';
import { entryToRate, type EntryUnit, type PriceUnit } from './price-logic';

export interface PriceFormState {
  model: string;
  models: string[];
  type: PriceEntry['type'];
  channel_type: number;
  entry: EntryUnit;
  unit: PriceUnit;
  input: string;
  output: string;
  locked: boolean;
  extra: RatioRow[];
  /** Long-context tiers: prompts of more than `above` tokens pay their own input, output and usage-class ratios (a class left out follows the base price). */
  tiers: { above: string; input: string; output: string; extra: RatioRow[] }[];
  /** Service-class multipliers (service tier, fast mode) on the whole price. */
  service: RatioRow[];
}

/** One usage-class ratio as typed: the class and its multiplier. */
export interface RatioRow {
  kind: string;
  value: string;
}
export type PriceFormErrors = Partial<Record<'model' | 'models' | 'type' | 'channel_type' | 'input' | 'output' | 'extra' | 'tiers' | 'service', string>>;

export function priceToForm(p?: Partial<PriceEntry> & { models?: string[] }): PriceFormState {
  return {
    model: p?.model ?? '',
    models: p?.models ?? [],
    type: p?.type ?? 'tokens',
    channel_type: p?.channel_type ?? 1,
    entry: 'rate',
    unit: 'K',
    input: String(p?.input ?? 0),
    output: String(p?.output ?? 0),
    locked: p?.locked ?? false,
    extra: ratioRows(p?.extra_ratios),
    tiers: (p?.tiers ?? []).map((t) => ({ above: String(t.above), input: String(t.input), output: String(t.output), extra: ratioRows(t.extra_ratios) })),
    service: ratioRows(p?.service_ratios),
  };
}

const ratioRows = (r?: Record<string, number> | null): RatioRow[] => Object.entries(r ?? {}).map(([kind, value]) => ({ kind, value: String(value) }));
const ratioMap = (rows: RatioRow[]) => Object.fromEntries(rows.map((x) => [x.kind, Number(x.value)]));

const nonNegative = (s: string) => s.trim() !== '' && Number.isFinite(Number(s)) && Number(s) >= 0;

/**
 * Field → i18n key (pricing namespace). `batch`: the models list instead of one name.
 * `taken`: models that already have a price (the edited ones excluded by the caller).
 */
export function validatePriceForm(f: PriceFormState, batch: boolean, taken: ReadonlySet<string>): PriceFormErrors {
  const e: PriceFormErrors = {};
  if (batch) {
    if (f.models.length === 0) e.models = 'errors.required';
    else if (f.models.some((m) => taken.has(m))) e.models = 'errors.taken';
  } else if (!f.model.trim()) e.model = 'errors.required';
  else if (taken.has(f.model.trim())) e.model = 'errors.taken';
  if (f.type !== 'tokens' && f.type !== 'times') e.type = 'errors.required';
  if (!Number.isInteger(f.channel_type) || f.channel_type < 1) e.channel_type = 'errors.provider';
  if (!nonNegative(f.input)) e.input = 'errors.price';
  if (f.type === 'tokens' && !nonNegative(f.output)) e.output = 'errors.price';
  if (!ratiosValid(f.extra)) e.extra = 'errors.extra';
  if (!ratiosValid(f.service) || f.service.some((x) => Number(x.value) > 100)) e.service = 'errors.service';
  if (f.type === 'tokens' && !tiersValid(f.tiers)) e.tiers = 'errors.tiers';
  return e;
}

/** Each ratio row names a class once and holds a number ≥ 0. */
function ratiosValid(rows: RatioRow[]): boolean {
  const kinds = rows.map((x) => x.kind);
  return rows.every((x) => x.kind && nonNegative(x.value)) && new Set(kinds).size === kinds.length;
}

/** Each threshold a whole number of tokens above 0, ascending, with non-negative prices and valid ratios. */
function tiersValid(tiers: PriceFormState['tiers']): boolean {
  const above = tiers.map((t) => Number(t.above));
  if (above.some((a, i) => !Number.isInteger(a) || a <= 0 || (i > 0 && a <= above[i - 1]))) return false;
  return tiers.every((t) => nonNegative(t.input) && nonNegative(t.output) && ratiosValid(t.extra));
}

/** The price fields as the API stores them: rates (typed USD/RMB converted), output = input for per-call prices. */
export function formToPrice(f: PriceFormState) {
  const input = entryToRate(Number(f.input), f.entry, f.unit);
  const output = f.type === 'times' ? input : entryToRate(Number(f.output), f.entry, f.unit);
  const extra = ratioMap(f.extra);
  const tiers =
    f.type === 'tokens' && f.tiers.length
      ? f.tiers.map((t) => ({ above: Number(t.above), input: entryToRate(Number(t.input), f.entry, f.unit), output: entryToRate(Number(t.output), f.entry, f.unit), ...(t.extra.length ? { extra_ratios: ratioMap(t.extra) } : {}) }))
      : null;
  const service = ratioMap(f.service);
  return { type: f.type, channel_type: f.channel_type, input, output, locked: f.locked, extra_ratios: Object.keys(extra).length ? extra : null, tiers, service_ratios: Object.keys(service).length ? service : null };
}
