import type { z } from 'zod';
import { ApiError } from './api';
import { fieldErrorText } from './api-errors';

/** The first message of each invalid field (top-level path), for helper texts. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!(field in out)) out[field] = issue.message;
  }
  return out;
}

/**
 * The fields a server answer refused (issue 38 point 2), keyed by the form's field names: a refused
 * body says why per field in the reader's language (`At least 3 characters`); a coded failure about
 * one field (`group_exists` at `symbol`) puts its translated text there. `names` maps server paths
 * to form fields (unmapped top-level paths keep their name); only the form's `fields` are kept, so
 * an empty answer means "show the failure as before".
 */
export function serverFieldErrors(error: unknown, fields: readonly string[], names: Record<string, string> = {}): Record<string, string> {
  if (!(error instanceof ApiError) || !error.fields?.length) return {};
  const perField = error.code === 'invalid_parameter' || error.code === 'text_refused';
  const out: Record<string, string> = {};
  for (const f of error.fields) {
    const top = f.path.split('.')[0];
    const key = names[f.path] ?? names[top] ?? top;
    if (!fields.includes(key) || key in out) continue;
    out[key] = perField ? fieldErrorText(f) : error.message;
  }
  return out;
}
