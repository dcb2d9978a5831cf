import { FormatError } from './errors.js';

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Tool-call arguments (a JSON string) → object; empty means `{}`; anything else is a 400. */
export function parseArguments(args: string | undefined, field: string): JsonObject {
  if (!args || !args.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw new FormatError(`${field} is not valid JSON`, field);
  }
  if (!isObject(value)) throw new FormatError(`${field} must be a JSON object`, field);
  return value;
}

/** Like parseArguments but never throws: broken JSON becomes `{}` and a warning. */
export function parseArgumentsLenient(args: string | undefined, field: string, warnings: string[]): JsonObject {
  try {
    return parseArguments(args, field);
  } catch {
    warnings.push(`${field}: arguments were not a JSON object and were replaced by {}`);
    return {};
  }
}

export interface DataUrl {
  mimeType: string;
  data: string;
}

/** `data:<mime>;base64,<data>` → parts; null for anything else. */
export function parseDataUrl(url: string): DataUrl | null {
  const m = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!m) return null;
  return { mimeType: m[1] ?? 'application/octet-stream', data: m[2] };
}

export const toDataUrl = (mimeType: string, data: string): string => `data:${mimeType};base64,${data}`;

const EXT_MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  heic: 'image/heic', heif: 'image/heif', pdf: 'application/pdf', mp3: 'audio/mpeg', wav: 'audio/wav', mp4: 'video/mp4',
};

/** MIME type from a URL's file extension (image/jpeg when unknown: URLs in image parts are images). */
export function mimeFromUrl(url: string): string {
  const path = url.split(/[?#]/)[0];
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXT_MIME[ext] ?? 'image/jpeg';
}

/** Joins text pieces of a content value (string or part list). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/**
 * Copy of a JSON schema without the given keys at any depth (Gemini rejects
 * `$schema`/`additionalProperties`). Reports which keys it removed.
 */
export function stripSchemaKeys(schema: unknown, keys: readonly string[], removed: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => stripSchemaKeys(s, keys, removed));
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (keys.includes(k)) {
      removed.add(k);
      continue;
    }
    // Property names are data, not keywords: a property called "additionalProperties" stays.
    if (k === 'properties' && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, stripSchemaKeys(pv, keys, removed)]));
    } else out[k] = stripSchemaKeys(v, keys, removed);
  }
  return out;
}

/** Warns about every key of `obj` not in `handled`. */
export function warnUnknownKeys(obj: JsonObject, handled: ReadonlySet<string>, where: string, warnings: string[]): void {
  for (const k of Object.keys(obj)) {
    if (!handled.has(k) && obj[k] !== undefined && obj[k] !== null) warnings.push(`${where}: dropped unsupported field "${k}"`);
  }
}
