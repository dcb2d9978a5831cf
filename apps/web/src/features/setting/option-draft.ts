import { checkOptionText, isOptionKey, OPTION_DEFS, trimTrailingSlash, type OptionDef, type OptionKey } from '@one-hub/contract';
import type { OptionMap } from './use-options';

/** How a settings field is edited (console-screens §9). */
export interface FieldSpec {
  key: OptionKey;
  input?: 'text' | 'number' | 'area' | 'json' | 'lines' | 'secret' | 'select' | 'check';
  /** Smallest accepted number (client check, e.g. QuotaPerUnit ≥ 0). */
  min?: number;
  /** Values of a select. */
  choices?: readonly string[];
  /** Trailing slashes removed before saving (server addresses). */
  url?: boolean;
  /** Sent only when filled in (SMTPPort): blank means unchanged, like secrets. */
  optional?: boolean;
  /** Full row width. */
  wide?: boolean;
}

export const isSecret = (key: OptionKey) => 'secret' in OPTION_DEFS[key] && OPTION_DEFS[key].secret === true;

/** The stored text as the field shows it: JSON pretty-printed, JSON keyword arrays one per line. */
export function toDisplay(field: FieldSpec, stored: string | undefined): string {
  const text = stored ?? '';
  if (field.input === 'json' && text.trim()) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  if (field.input === 'lines' && text.trim().startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list)) return list.map(String).join('\n');
    } catch {
      return text;
    }
  }
  return text;
}

/** The text to store for a field's draft. */
export function toStored(field: FieldSpec, draft: string): string {
  if (field.url) return trimTrailingSlash(draft);
  if (field.input === 'lines') return draft.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
  if (field.input === 'number' || field.input === 'text' || field.input === 'secret' || field.input === undefined) return draft.trim();
  return draft;
}

/** The section's fields as drafts, from the stored options. */
export function draftsFrom(fields: readonly FieldSpec[], options: OptionMap): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.key, isSecret(f.key) ? '' : toDisplay(f, options[f.key])]));
}

/** Only what changed: secrets and optional fields only when filled in (console-screens §3.6). */
export function changedEntries(fields: readonly FieldSpec[], options: OptionMap, drafts: Record<string, string>): Array<[OptionKey, string]> {
  const out: Array<[OptionKey, string]> = [];
  for (const f of fields) {
    const draft = drafts[f.key] ?? '';
    if (isSecret(f.key) || f.optional) {
      if (draft.trim() !== '' && toStored(f, draft) !== (options[f.key] ?? '')) out.push([f.key, toStored(f, draft)]);
      continue;
    }
    if (draft === toDisplay(f, options[f.key])) continue;
    const stored = toStored(f, draft);
    if (stored !== (options[f.key] ?? '')) out.push([f.key, stored]);
  }
  return out;
}

/** The bounds a numeric setting is checked against (the contract's and the field's own), for its error text. */
export function entryBounds(f: FieldSpec): { min?: number; max?: number } {
  if (!isOptionKey(f.key)) return {};
  const def: OptionDef = OPTION_DEFS[f.key];
  const min = Math.max(f.min ?? -Infinity, def.min ?? -Infinity);
  return { ...(Number.isFinite(min) ? { min } : {}), ...(def.max !== undefined ? { max: def.max } : {}) };
}

/**
 * Field errors (i18n keys of the common `validation.*` texts) for the entries about to be sent; a
 * bound is worded with its figure (`validation.atLeast` with `entryBounds`: "Must be at least 1").
 */
export function checkEntries(fields: readonly FieldSpec[], entries: Array<[OptionKey, string]>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of entries) {
    const f = fields.find((x) => x.key === key);
    if (!f || !isOptionKey(key)) continue;
    const def: OptionDef = OPTION_DEFS[key];
    const n = Number(value);
    const numeric = (def.kind === 'int' || def.kind === 'float') && value.trim() !== '' && Number.isFinite(n);
    // The contract's bounds and the field's own minimum, worded as such rather than as a type error.
    if (numeric && n < Math.max(f.min ?? -Infinity, def.min ?? -Infinity)) errors[key] = 'validation.atLeast';
    else if (numeric && def.max !== undefined && n > def.max) errors[key] = 'validation.atMost';
    else if (checkOptionText(key, value)) errors[key] = def.kind === 'json' ? 'validation.json' : def.kind === 'int' ? 'validation.integer' : 'validation.required';
  }
  return errors;
}
