import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSchemas } from '@one-hub/contract';
import { ApiClient, startTestServer, type TestServer } from '../harness.js';

/** Every (method, path) Fastify has, read from its own route tree (independent of the OpenAPI hook). */
function fastifyRoutes(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m || !m[2]) continue;
    const depth = Math.round([...m[1]].length / 4);
    stack.length = depth;
    stack.push(m[2]);
    const path = norm(stack.join(''));
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD' && method !== 'OPTIONS') out.add(`${method} ${path}`);
  }
  return out;
}

/** One spelling for both sides: no trailing slash, `/x/*` as `/x*` (the route tree prints it so). */
/** Parameter names are compared as `:_` (the tree prints one node's names as `:model|:action`). */
const norm = (path: string) => path.replace(/\/$/, '').replace(/\/\*$/, '*').replace(/:\w+(\|:\w+)*/g, ':_') || '/';
const openApiToFastify = (path: string) => norm(path.replace(/\{path\}$/, '*').replace(/\{(\w+)\}/g, ':$1'));

describe('OpenAPI description', () => {
  let server: TestServer;
  let doc: any;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const res = await new ApiClient(server.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => server?.destroy());

  it('lists exactly the registered /api and relay routes', () => {
    const registered = fastifyRoutes(server.app.printRoutes({ commonPrefix: false }));
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${openApiToFastify(path)}`);
    }
    const expected = [...registered].filter((r) => !/ (\/\*|\/|\/api\/openapi\.json)$/.test(r));
    expect(expected.length).toBeGreaterThan(150);
    expect([...expected].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !registered.has(r))).toEqual([]);
    for (const door of ['POST /v1/chat/completions', 'POST /v1/responses', 'POST /v1/messages', 'POST /v1beta/models/:action', 'GET /api/status', 'POST /api/user/login']) {
      const [method, path] = door.split(' ');
      expect(documented.has(`${method} ${norm(path)}`), door).toBe(true);
    }
  });

  it('is OpenAPI 3.1 with unique operation ids and every path parameter declared', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'One Hub' });
    const ids: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(ops)) {
        ids.push(op.operationId);
        const declared = op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(declared, path).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
        expect(op.responses['200'], path).toBeDefined();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes request bodies and queries from the contract schemas, and every schema entry names a real route', () => {
    const token = doc.paths['/api/token/'].post;
    expect(token.requestBody.content['application/json'].schema.properties).toHaveProperty('name');
    expect(doc.paths['/api/log/'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['log_type', 'start_timestamp', 'model_name']));
    expect(doc.paths['/api/option/'].put.requestBody.content['application/json'].schema.required).toEqual(['key', 'value']);
    expect(doc.paths['/v1/chat/completions'].post.security).toEqual([{ bearer: [] }]);
    for (const key of Object.keys(apiSchemas())) {
      const [method, url] = key.split(' ');
      const found = [url, url.replace(/\/$/, '')].some((u) => server.app.hasRoute({ method: method as 'GET', url: u }));
      expect(found, key).toBe(true);
    }
  });
});
