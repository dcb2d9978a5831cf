import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../../server/test/fakes/github';
import { chromiumAvailable, startConsole, type Console } from './browser';

/** From the login button through GitHub (the fake, behind github.com's authorize page) to the panel. */
describe.skipIf(!chromiumAvailable)('GitHub sign-in in Chromium', () => {
  let c: Console;
  const github = new FakeGitHub('e2e-gh-client', 'e2e-gh-secret');

  beforeAll(async () => {
    const url = await github.start();
    c = await startConsole({ GITHUB_BASE_URL: url, GITHUB_API_BASE_URL: url, CRITICAL_RATE_LIMIT: '0' });
    for (const [key, value] of [['GitHubClientId', 'e2e-gh-client'], ['GitHubClientSecret', 'e2e-gh-secret'], ['GitHubOAuthEnabled', 'true']]) {
      expect((await c.root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await github.close();
  });

  it('signs a new user in with the GitHub button and lands on the panel', async () => {
    const page = await c.open();
    const asked: URLSearchParams[] = [];
    // github.com's authorize page: the person approves, GitHub redirects back to the console with a code
    await page.route('https://github.com/login/oauth/authorize**', async (route) => {
      const q = new URL(route.request().url()).searchParams;
      asked.push(q);
      const code = github.authorize({ id: 4242, login: 'e2e-octo', name: 'E2E Octo', emails: [{ email: 'octo@e2e.test', primary: true, verified: true }] });
      await route.fulfill({ status: 302, headers: { location: `${c.base}/oauth/github?code=${code}&state=${q.get('state')}` } });
    });
    await page.goto('/login');
    await page.getByRole('button', { name: '使用 GitHub 登录' }).click();
    await page.waitForURL(/\/panel\//);
    expect(asked[0].get('client_id')).toBe('e2e-gh-client');
    expect(asked[0].get('state')).toMatch(/^[0-9a-zA-Z]{12}$/);
    const user = await c.server.ctx.db.selectFrom('users').selectAll().where('username', '=', 'e2e-octo').executeTakeFirstOrThrow();
    expect([user.github_id_new, user.email, user.display_name]).toEqual([4242, 'octo@e2e.test', 'E2E Octo']);
    const self = await page.evaluate(async () => (await fetch('/api/user/self')).json());
    expect(self.data.username).toBe('e2e-octo');
  });
});
