import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';

/** Where the reader lives: a page, its start-up script, and Swagger UI's own files. */
export const API_DOCS_PATH = '/api/docs';

/** The files of the npm package swagger-ui-dist served beside the page (nothing else of it is reachable). */
const VENDOR: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The page's start-up, served as a file so that the console's Content-Security-Policy (script-src
 * 'self', no inline script) holds here too. No validator badge: it would fetch an outside host.
 */
const INIT_SCRIPT = `"use strict";
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  filter: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

let vendorDir: { dir: string; version: string } | undefined;

/** swagger-ui-dist's folder, found the way Node finds the package (from src/ under tsx and from dist/ alike). */
function vendor(): { dir: string; version: string } {
  if (!vendorDir) {
    try {
      const require = createRequire(import.meta.url);
      const manifest = require.resolve('swagger-ui-dist/package.json');
      vendorDir = { dir: dirname(manifest), version: (require(manifest) as { version: string }).version };
    } catch {
      throw new HubError(503, 'The API reference needs the npm package swagger-ui-dist (run npm install)');
    }
  }
  return vendorDir;
}

const escapeHtml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, version: string, serverVersion: string): string {
  const v = encodeURIComponent(version);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · API reference</title>
<link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css?v=${v}">
<link rel="icon" type="image/png" href="${API_DOCS_PATH}/favicon-32x32.png?v=${v}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${API_DOCS_PATH}/swagger-ui-bundle.js?v=${v}"></script>
<script src="${API_DOCS_PATH}/init.js?v=${encodeURIComponent(serverVersion)}"></script>
</body>
</html>
`;
}

/**
 * `/api/docs`: an interactive reference of `/api/openapi.json` (Swagger UI from the npm package
 * swagger-ui-dist, read from node_modules at run time, so `npm start`, the built dist and the image
 * serve the same files). The console scope's security headers (its CSP) apply unchanged.
 * Called in the `/api` scope. Like the description itself, these pages are not operations of it (openapi.ts hides them).
 */
export function registerApiDocs(app: FastifyInstance, ctx: AppContext): void {
  // Registered inside the /api scope, whose prefix Fastify adds.
  const at = API_DOCS_PATH.slice('/api'.length);
  app.get(at, async (_req, reply) => {
    const { version } = vendor();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page(ctx.options.get('SystemName') || 'One Hub', version, ctx.version));
  });
  app.get(`${at}/init.js`, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(INIT_SCRIPT),
  );
  for (const [file, type] of Object.entries(VENDOR)) {
    app.get(`${at}/${file}`, async (_req, reply) => {
      const { dir } = vendor();
      // Versioned URLs (?v=): the file behind one never changes.
      return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(createReadStream(join(dir, file)));
    });
  }
}
