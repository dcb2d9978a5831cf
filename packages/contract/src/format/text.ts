import { z } from 'zod';

/** NUL, or a UTF-16 surrogate without its pair (the `u` flag makes a whole pair one code point). */
const FORBIDDEN = /[\u0000\uD800-\uDFFF]/u;
const FORBIDDEN_ALL = /[\u0000\uD800-\uDFFF]/gu;

export const TEXT_REFUSED = 'must not contain NUL (U+0000) or unpaired surrogate characters';

/** The longest any text field may be (a field's own, smaller `.max` still applies). */
export const TEXT_MAX = 1_000_000;

/** True when a string can be stored and echoed on every dialect (PostgreSQL refuses NUL in text). */
export function isCleanText(value: string): boolean {
  return !FORBIDDEN.test(value);
}

/**
 * The one string schema of the API (architecture.md "Strings"): every text field, query filter and
 * path parameter is built on it, so a NUL or a lone surrogate is a 400 naming the field, and so is
 * a string over TEXT_MAX.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isCleanText, TEXT_REFUSED).max(TEXT_MAX);
}

/**
 * The first string inside a value (object keys included) that `text` would refuse, as its dotted
 * path (a refused key shown with U+FFFD, so the answer never echoes one); undefined when there is
 * none. For inputs no schema reads (path parameters, free queries); 128 levels deep, as the console's
 * JSON parser allows.
 */
export function refusedTextPath(value: unknown, path = ''): string | undefined {
  const found = refusedIn(value, 0);
  if (found === undefined) return undefined;
  return [path, found].filter(Boolean).join('.') || 'value';
}

/** The refused place relative to `value` ('' for the value itself); paths are built only on the way out of a refusal. */
function refusedIn(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return isCleanText(value) ? undefined : '';
  if (depth > 128 || !value || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const name = () => key.replace(FORBIDDEN_ALL, '\uFFFD');
    if (!isCleanText(key)) return name();
    const inner = (value as Record<string, unknown>)[key];
    if (inner === null || (typeof inner !== 'string' && typeof inner !== 'object')) continue;
    const found = refusedIn(inner, depth + 1);
    if (found !== undefined) return found ? `${name()}.${found}` : name();
  }
  return undefined;
}
