import { HubError } from '../../../common/errors.js';
import type { Endpoint } from '../types.js';

/** Spark answers some failures with HTTP 200 and a non-zero `code`. */
export function sparkAnswer(_endpoint: Endpoint, json: unknown): unknown {
  const { code, message } = (json ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'number' && code !== 0) {
    throw new HubError(502, `Provider API error: ${String(message ?? 'Spark error')} (code ${code})`, { type: 'upstream_error', code: String(code), retryable: true });
  }
  return json;
}
