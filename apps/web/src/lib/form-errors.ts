import type { z } from 'zod';
import { ApiError } from './api';
import { fieldErrorText } from './api-errors';
import i18n from './i18n';

type Issue = z.core.$ZodIssue;

/**
 * The text of one form issue in the reader's language: its message is a common `validation.*` key
 * (or zod's own text); a bound is worded with its figure, read from the issue ("Must be at least 1",
 * "At most 255 characters", "Must be greater than 0").
 */
export function issueText(issue: Issue): string {
  let key = issue.message;
  let min: number | undefined;
  let max: number | undefined;
  if (issue.code === 'too_small') {
    min = Number(issue.minimum);
    if (issue.inclusive === false && key === 'validation.atLeast') key = 'validation.above';
  } else if (issue.code === 'too_big') {
    max = Number(issue.maximum);
  } else if (issue.code === 'custom') {
    const params = (issue.params ?? {}) as { minimum?: unknown; maximum?: unknown };
    if (typeof params.minimum === 'number') min = params.minimum;
    if (typeof params.maximum === 'number') max = params.maximum;
  }
  return i18n.t(key, { ns: 'common', min, max });
}

/** The first problem of each invalid field (top-level path) as its text, for helper texts. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!(field in out)) out[field] = issueText(issue);
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
