/** How the provider model selector turns upstream model names into a model mapping (console-screens §3.3). */
export interface MappingOptions {
  removePrefix: string;
  removeSuffix: string;
  /** `org/model` → `model`. */
  lastSegment: boolean;
  /** `+upstream`: bill by the requested model. */
  plus: boolean;
  lowercase: boolean;
  /** Leave out names the current mapping already has. */
  skipMapped: boolean;
  /** Replace the current mapping instead of adding to it. */
  overwrite: boolean;
}

export const DEFAULT_MAPPING_OPTIONS: MappingOptions = { removePrefix: '', removeSuffix: '', lastSegment: false, plus: false, lowercase: false, skipMapped: true, overwrite: false };

/** The name a user will request for an upstream model. */
export function aliasOf(model: string, o: MappingOptions): string {
  let alias = o.lastSegment ? model.slice(model.lastIndexOf('/') + 1) : model;
  if (o.removePrefix && alias.startsWith(o.removePrefix)) alias = alias.slice(o.removePrefix.length);
  if (o.removeSuffix && alias.endsWith(o.removeSuffix)) alias = alias.slice(0, -o.removeSuffix.length);
  if (o.lowercase) alias = alias.toLowerCase();
  return alias || model;
}

/**
 * The mapping after adding the chosen upstream models, and the names to offer as the channel's models.
 * A model whose alias is its own name needs no mapping entry (unless `+` billing is asked for).
 */
export function applyMapping(models: string[], o: MappingOptions, existing: Record<string, string>): { mapping: Record<string, string>; names: string[] } {
  const added: Record<string, string> = {};
  const names: string[] = [];
  for (const m of models) {
    const alias = aliasOf(m, o);
    if (o.skipMapped && alias in existing) {
      names.push(alias);
      continue;
    }
    names.push(alias);
    if (alias !== m || o.plus) added[alias] = `${o.plus ? '+' : ''}${m}`;
  }
  return { mapping: o.overwrite ? added : { ...existing, ...added }, names: [...new Set(names)] };
}

/** The current mapping text as an object; anything unreadable counts as empty. */
export function readMapping(text: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}
