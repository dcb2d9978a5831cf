import type { FastifyInstance } from 'fastify';
import { openApiDocument, type RegisteredRoute } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';

/** Routes outside the API surface: the SPA's files and this description itself. */
const hidden = (url: string) => url === '/api/openapi.json' || url === '/*' || url === '/' || url.startsWith('/assets');

/**
 * Records every route as it is registered and serves their OpenAPI 3.1 description at
 * `/api/openapi.json` (public, like the original's /api/status). Call before any route exists.
 */
export function registerOpenApi(app: FastifyInstance, ctx: AppContext): () => RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (!hidden(route.url)) routes.push({ method, url: route.url });
  });
  let doc: unknown;
  app.get('/api/openapi.json', async () => (doc ??= openApiDocument(routes, ctx.version)));
  return () => routes;
}
