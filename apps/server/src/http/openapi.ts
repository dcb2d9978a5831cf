import type { FastifyInstance } from 'fastify';
import { openApiDocument, type RegisteredRoute } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';

const roles = new WeakMap<object, number>();

/** Tags a role guard with the least role it lets through, for the description's `x-min-role`. */
export function markRole<F extends object>(minRole: number, guard: F): F {
  roles.set(guard, minRole);
  return guard;
}

const minRole = (preHandler: unknown) =>
  [preHandler].flat(2).reduce<number | undefined>((found, h) => (h && typeof h === 'function' && roles.has(h) ? Math.max(found ?? 0, roles.get(h)!) : found), undefined);

/** Routes outside the API surface: the SPA's files, this description itself and its reader (/api/docs). */
const hidden = (url: string) =>
  url === '/api/openapi.json' || url === '/api/docs' || url.startsWith('/api/docs/') || url === '/*' || url === '/' || url.startsWith('/assets');

/**
 * Records every route as it is registered and serves their OpenAPI 3.1 description at
 * `/api/openapi.json` (public, like the original's /api/status). Call before any route exists.
 */
export function registerOpenApi(app: FastifyInstance, ctx: AppContext): () => RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (!hidden(route.url)) routes.push({ method, url: route.url, minRole: minRole(route.preHandler) });
  });
  let doc: unknown;
  app.get('/api/openapi.json', async () => (doc ??= openApiDocument(routes, ctx.version)));
  return () => routes;
}
