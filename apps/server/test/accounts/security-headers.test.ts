import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';

describe('console security headers', () => {
  let server: TestServer;
  let web: string;

  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'one-hub-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/app.js"></script>');
    writeFileSync(join(web, 'app.js'), 'console.log(1)');
    server = await startTestServer('sqlite', { env: { WEB_DIST: web } });
  });
  afterAll(async () => {
    await server?.destroy();
    rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string) => server.app.inject({ method: 'GET', url });

  function expectConsoleHeaders(headers: Record<string, unknown>) {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain(`default-src 'self'`);
    expect(csp).toContain(`script-src 'self' https://challenges.cloudflare.com`);
    expect(csp).toContain(`style-src 'self' 'unsafe-inline'`);
    expect(csp).toContain(`frame-ancestors 'none'`);
    expect(csp).toContain(`object-src 'none'`);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  }

  it('sends them on /api answers, the SPA fallback and static files', async () => {
    expectConsoleHeaders((await get('/api/status')).headers);
    expectConsoleHeaders((await get('/api/user/self')).headers); // a 401 too
    expectConsoleHeaders((await get('/panel/dashboard')).headers);
    expectConsoleHeaders((await get('/')).headers);
    const asset = await get('/app.js');
    expect(asset.statusCode).toBe(200);
    expectConsoleHeaders(asset.headers);
  });

  it('leaves relay answers alone', async () => {
    const res = await get('/v1/models');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('lets the analytics code run its scripts while AnalyticsCode is set', async () => {
    const root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    expect((await root.put('/api/option/', { key: 'AnalyticsCode', value: '<script>window.a=1</script>' })).body.success).toBe(true);
    expect(String((await get('/')).headers['content-security-policy'])).toContain(`script-src 'self' 'unsafe-inline' https:`);
    expect((await root.put('/api/option/', { key: 'AnalyticsCode', value: '' })).body.success).toBe(true);
    expect(String((await get('/')).headers['content-security-policy'])).toContain(`script-src 'self' https://challenges.cloudflare.com`);
  });
});
