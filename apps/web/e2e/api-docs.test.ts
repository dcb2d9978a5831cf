import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';

/**
 * /api/docs in Chromium: Swagger UI (swagger-ui-dist, served by the server itself) renders the
 * served description's operations and runs one, with the console's Content-Security-Policy
 * blocking nothing and no request failing.
 */
describe.skipIf(!chromiumAvailable)('the API reference at /api/docs', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole();
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  /** A fresh page recording every CSP report, message about the policy, console error, failed request and 4xx/5xx answer. */
  async function watched(): Promise<{ page: Page; problems: string[] }> {
    const page = await c.open({ lang: 'en_US' });
    const problems: string[] = [];
    await page.exposeBinding('__cspViolation', (_src, what: string) => void problems.push(`securitypolicyviolation: ${what}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __cspViolation: (s: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content[- ]Security[- ]Policy/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
    });
    return { page, problems };
  }

  it('is linked from the settings (Other tab), opening in a new tab', async () => {
    const page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/setting#other');
    const link = page.getByTestId('api-docs-link');
    await expect.poll(() => link.innerText()).toBe('API reference');
    expect(await link.getAttribute('href')).toBe('/api/docs');
    const [docs] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await docs.waitForURL(/\/api\/docs$/);
    await docs.locator('#swagger-ui .info .title').waitFor();
  });

  it('renders the operations and runs one, with no CSP violation and no failed request', async () => {
    const { page: docs, problems } = await watched();
    await docs.goto('/api/docs');
    // Swagger UI fetched /api/openapi.json; it draws only the operations in view, so the filter brings each one up.
    await docs.locator('.info .title', { hasText: 'One Hub' }).waitFor();
    const filter = docs.locator('.operation-filter-input');
    const shown = (path: string) => docs.locator('.opblock-summary-path', { hasText: new RegExp(`^${path.replace(/[/.]/g, '\\$&')}$`) });
    for (const path of ['/api/user/login', '/v1/chat/completions', '/v1/messages', '/api/status']) {
      await filter.fill(path);
      await shown(path).first().waitFor();
    }
    expect(await docs.locator('.opblock-tag').allInnerTexts()).toEqual(['status']);

    // "Try it out" on GET /api/status: the request goes out under connect-src 'self' and its answer is shown.
    const status = docs.locator('.opblock-get', { has: shown('/api/status') }).first();
    await status.locator('.opblock-summary').click();
    await status.getByRole('button', { name: 'Try it out' }).click();
    await status.getByRole('button', { name: 'Execute' }).click();
    await status.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    expect(await status.locator('.live-responses-table td.response-col_description:not(.col_header)').innerText()).toContain('"success": true');
    await docs.screenshot({ path: `${SHOTS}/api-docs.png` });

    expect(problems).toEqual([]);
  });
});
