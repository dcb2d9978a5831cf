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
  extra: { kind: string; value: string }[];
  /** Long-context tiers: prompts of more than `above` tokens pay their own input and output (cache ratios kept as loaded). */
  tiers: { above: string; input: string; output: string; extra_ratios?: Record<string, number> }[];
}
export type PriceFormErrors = Partial<Record<'model' | 'models' | 'type' | 'channel_type' | 'input' | 'output' | 'extra' | 'tiers', string>>;

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
    extra: Object.entries(p?.extra_ratios ?? {}).map(([kind, value]) => ({ kind, value: String(value) })),
    tiers: (p?.tiers ?? []).map((t) => ({ above: String(t.above), input: String(t.input), output: String(t.output), ...(t.extra_ratios ? { extra_ratios: t.extra_ratios } : {}) })),
  };
}

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
  const kinds = f.extra.map((x) => x.kind);
  if (f.extra.some((x) => !x.kind || !nonNegative(x.value)) || new Set(kinds).size !== kinds.length) e.extra = 'errors.extra';
  if (f.type === 'tokens' && !tiersValid(f.tiers)) e.tiers = 'errors.tiers';
  return e;
}

/** Each threshold a whole number of tokens above 0, ascending, with non-negative prices. */
function tiersValid(tiers: PriceFormState['tiers']): boolean {
  const above = tiers.map((t) => Number(t.above));
  if (above.some((a, i) => !Number.isInteger(a) || a <= 0 || (i > 0 && a <= above[i - 1]))) return false;
  return tiers.every((t) => nonNegative(t.input) && nonNegative(t.output));
}

/** The price fields as the API stores them: rates (typed USD/RMB converted), output = input for per-call prices. */
export function formToPrice(f: PriceFormState) {
  const input = entryToRate(Number(f.input), f.entry, f.unit);
  const output = f.type === 'times' ? input : entryToRate(Number(f.output), f.entry, f.unit);
  const extra = Object.fromEntries(f.extra.map((x) => [x.kind, Number(x.value)]));
  const tiers =
    f.type === 'tokens' && f.tiers.length
      ? f.tiers.map((t) => ({ above: Number(t.above), input: entryToRate(Number(t.input), f.entry, f.unit), output: entryToRate(Number(t.output), f.entry, f.unit), ...(t.extra_ratios ? { extra_ratios: t.extra_ratios } : {}) }))
      : null;
  return { type: f.type, channel_type: f.channel_type, input, output, locked: f.locked, extra_ratios: Object.keys(extra).length ? extra : null, tiers };
}
