import type { z } from 'zod';
import { HubError } from '../common/errors.js';

/** Parses input with a contract schema; a mismatch becomes a 400 that names the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new HubError(400, `${where}${issue.message}`, { code: 'invalid_parameter' });
}
