import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { contentSecurityPolicy } from '../../src/http/security-headers.js';

/** /api/docs: Swagger UI over the served description, from the swagger-ui-dist package, under the console's CSP. */
describe('/api/docs', () => {
  let server: TestServer;
  const vendorDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.destroy());

  const get = (url: string) => server.app.inject({ method: 'GET', url });

  it('serves a page without inline script, under the console Content-Security-Policy', async () => {
    const res = await get('/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(false));
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe-eval/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => /src="([^"]+)"/.exec(m[1])?.[1]?.split('?')[0])).toEqual(['/api/docs/swagger-ui-bundle.js', '/api/docs/init.js']);
    for (const m of scripts) expect(m[2].trim()).toBe('');
    // The system name is escaped into the title.
    await server.ctx.options.save({ SystemName: 'Hub <b>&' });
    expect((await get('/api/docs')).body).toContain('<title>Hub &#60;b&#62;&#38; · API reference</title>');
  });

  it('serves every file the page names, the vendor ones byte for byte from swagger-ui-dist', async () => {
    const body = (await get('/api/docs')).body;
    const urls = [...body.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(urls).toHaveLength(4);
    for (const url of urls) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const file = url.split('?')[0].split('/').pop()!;
      if (file === 'init.js') {
        expect(res.headers['content-type']).toMatch(/^text\/javascript/);
        expect(res.body).toContain("url: '/api/openapi.json'");
        expect(res.body).toContain('validatorUrl: null');
      } else {
        expect(res.rawPayload.equals(readFileSync(join(vendorDir, file))), file).toBe(true);
        expect(res.headers['cache-control']).toContain('immutable');
      }
    }
    expect((await get('/api/docs/swagger-ui.css')).headers['content-type']).toMatch(/^text\/css/);
    expect((await get('/api/docs/swagger-ui-bundle.js')).headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('reaches no other file of the package and is not an operation of the description', async () => {
    for (const url of ['/api/docs/index.html', '/api/docs/swagger-initializer.js', '/api/docs/../package.json', '/api/docs/package.json']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().success, url).toBe(false);
    }
    const doc = (await get('/api/openapi.json')).json();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
    expect(doc.paths['/api/user/login']).toBeDefined();
  });
});
