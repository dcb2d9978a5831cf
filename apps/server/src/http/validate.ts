import type { z } from 'zod';
import { fieldErrorOf } from '@one-hub/contract';
import { apiError } from '../common/errors.js';

/**
 * Parses input with a contract schema; a mismatch becomes a 400 `invalid_parameter` whose message
 * names the first field as before, with every refused field (path, code, bound) for the form.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields = result.error.issues.map(fieldErrorOf);
  const first = result.error.issues[0];
  const field = first.path.map(String).join('.');
  const where = field ? `${field}: ` : '';
  throw apiError(400, 'invalid_parameter', { field, detail: first.message }, { message: `${where}${first.message}`, fields });
}
