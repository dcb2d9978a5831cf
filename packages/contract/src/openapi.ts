import { z } from 'zod';
import { apiSchemas, type RouteSchemas } from './api-schemas.js';
import { API_ERRORS, FIELD_ERRORS } from './api-error.js';

export interface RegisteredRoute {
  method: string;
  /** Fastify path syntax: `/api/user/:id`, `/v1/files/*`. */
  url: string;
  /** The least user role its guard lets through (api.md roles: 1 common, 10 admin, 100 root). */
  minRole?: number;
}

type Json = Record<string, unknown>;

/** `/api/user/:id` → `/api/user/{id}`; a trailing `*` becomes `{path}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\*$/, '{path}');
}

const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** The methods an OpenAPI 3.1 path item can hold (HEAD and OPTIONS are Fastify's own answers here). */
export const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'trace'] as const;

function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

function queryParameters(schema: z.ZodType): Json[] {
  const s = jsonSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => ({ name, in: 'query', required: s.required?.includes(name) ?? false, schema: prop }));
}

const ENVELOPE = {
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string' },
    data: {},
    // On failures (api-error.ts): the listed code, its arguments, and a refused body's fields.
    code: { type: 'string', enum: Object.keys(API_ERRORS) },
    args: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'code', 'message'],
        properties: { path: { type: 'string' }, code: { type: 'string', enum: Object.keys(FIELD_ERRORS) }, args: { type: 'object' }, message: { type: 'string' } },
      },
    },
  },
};

function area(url: string): string {
  if (url.startsWith('/api/')) return url.split('/')[2]?.replace(/^:.*/, '') || 'api';
  if (url.startsWith('/v1beta') || url.startsWith('/gemini')) return 'relay: gemini';
  if (url.startsWith('/claude') || url === '/v1/messages') return 'relay: anthropic';
  return `relay: ${url.split('/')[1] || 'root'}`;
}

function operation(route: RegisteredRoute, path: string, schemas: RouteSchemas | undefined): Json {
  const consoleRoute = route.url.startsWith('/api/');
  const op: Json = {
    operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    tags: [area(route.url)],
    parameters: [
      ...pathParams(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(schemas?.query ? queryParameters(schemas.query) : []),
    ],
    responses: consoleRoute
      ? { '200': { description: 'The answer envelope (api.md §10.2)', content: { 'application/json': { schema: ENVELOPE } } } }
      : {
          '200': { description: 'The provider-format answer (JSON or server-sent events)' },
          '502': { description: 'The upstream failed or answered brokenly: a generic reason and the request id, never its text' },
          '503': { description: 'No channel can serve the model now, or every one failed' },
          '504': { description: 'The upstream did not answer in time' },
          default: { description: 'An error in the door\'s own format' },
        },
  };
  if (schemas?.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(schemas.body) } } };
  else if (!consoleRoute && ['POST', 'PUT', 'PATCH'].includes(route.method)) {
    op.requestBody = { content: { 'application/json': { schema: { type: 'object' } }, 'multipart/form-data': { schema: { type: 'object' } } } };
  }
  if (!consoleRoute) op.security = [{ bearer: [] }];
  if (route.minRole !== undefined) op['x-min-role'] = route.minRole;
  return op;
}

/**
 * The OpenAPI 3.1 description of the registered routes (console `/api` and the relay doors),
 * with request bodies and queries generated from the contract's zod schemas.
 */
export function openApiDocument(routes: readonly RegisteredRoute[], version: string): Json {
  const schemas = apiSchemas();
  const paths: Record<string, Record<string, Json>> = {};
  // 3.1 forbids two templates differing only in parameter names (`/models/{model}` beside
  // `/models/{action}`; Fastify shares the node): the first registered spelling names both.
  const spelling = new Map<string, string>();
  for (const route of routes) {
    if (!(OPENAPI_METHODS as readonly string[]).includes(route.method.toLowerCase())) continue;
    const own = openApiPath(route.url);
    const shape = own.replace(/\{\w+\}/g, '{}');
    if (!spelling.has(shape)) spelling.set(shape, own);
    const path = spelling.get(shape)!;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, path, schemas[`${route.method} ${route.url}`]);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'One Hub', version, description: 'Console API (/api, cookie session or access token) and the relay doors (/v1, /v1beta, /claude, …; API key).' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}
