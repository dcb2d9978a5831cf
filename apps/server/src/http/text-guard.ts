import type { FastifyInstance } from 'fastify';
import { refusedTextPath, TEXT_REFUSED } from '@one-hub/contract';
import { apiError } from '../common/errors.js';

/**
 * The contract's text rule for what no schema reads: path parameters and queries on every route,
 * and console (`/api`) bodies. A relay body is the user's content and is forwarded as sent; the
 * database drivers make it safe where it is stored (db/index.ts).
 */
export function registerTextGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every relay request and needs no promise.
  app.addHook('preValidation', (req, _reply, done) => {
    const field = refusedTextPath(req.params, 'path') ?? refusedTextPath(req.query, 'query') ?? (req.url.startsWith('/api/') ? refusedTextPath(req.body) : undefined);
    done(field ? apiError(400, 'text_refused', { field, detail: TEXT_REFUSED }, { fields: [{ path: field, code: 'invalid_value', message: TEXT_REFUSED }] }) : undefined);
  });
}
