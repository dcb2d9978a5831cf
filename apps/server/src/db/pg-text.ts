import type pg from 'pg';

/**
 * PostgreSQL text cannot hold U+0000 (a bound NUL is "invalid byte sequence", a 500). Console and
 * API inputs with one are refused earlier (contract `text`); what still arrives here is a relay
 * user's own content (a prompt, a model name in a log row), stored with U+FFFD in its place.
 */
export function pgSafeParam(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  if (Array.isArray(value)) return value.map(pgSafeParam);
  return value;
}

/** Every client of the pool binds its parameters through pgSafeParam. */
export function bindTextSafely(pool: pg.Pool): pg.Pool {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, params?: unknown, ...rest: unknown[]) =>
      Array.isArray(params) ? query(text, params.map(pgSafeParam), ...rest) : query(text, params, ...rest)) as typeof client.query;
  });
  return pool;
}
