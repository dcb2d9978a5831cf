import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';
import { startGateway } from './gateway';

const ANSWER = 'Here is code:\n\n```js\nconst answer = 42;\n```\n\nDone **now**.';

/** Chat in the playground, then find the request on the dashboard (and in the logs). */
describe.skipIf(!chromiumAvailable)('playground chat and usage screens in Chromium', () => {
  let c: Console;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let page: Page;
  beforeAll(async () => {
    c = await startConsole();
    gw = await startGateway(c);
    await gw.addModel('e2e-chat', { content: ANSWER });
    await gw.addModel('e2e-slow', { content: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), chunkDelayMs: 100 });
    await gw.addModel('e2e-broken', { status: 400, errorBody: { error: { message: 'prompt is too long for this model', type: 'invalid_request_error', code: null } } });
    // not chat models: a per-call one and one without an output price, both served to the group
    await gw.addModel('e2e-imagine');
    await c.server.ctx.db.updateTable('prices').set({ type: 'times' }).where('model', '=', 'e2e-imagine').execute();
    await gw.addModel('e2e-embedding');
    await c.server.ctx.db.updateTable('prices').set({ output: 0 }).where('model', '=', 'e2e-embedding').execute();
    await c.server.ctx.store.publish('prices:changed', '');
    await gw.addUser('chatter', 'password123');
    page = await c.open();
    await signIn(page, 'chatter', 'password123');
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await gw?.close();
  });

  const chooseModel = async (model: string) => {
    await page.getByLabel('模型').click();
    await page.getByRole('option', { name: model, exact: true }).click();
  };

  it('shows an empty week on a new account', async () => {
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.getByTestId('stat-requests-value').innerText()).toBe('0');
    expect(await page.getByTestId('stat-cost-value').innerText()).toBe('$0.000');
    await page.getByTestId('week-model-chart').getByText('暂无数据').waitFor();
    expect(await page.getByTestId('usage-table').locator('tbody tr').count()).toBe(7);
  });

  it('streams an answer with highlighted code through the user token', async () => {
    await page.goto('/panel/playground');
    await page.getByTestId('playground-chat').waitFor();
    await page.getByLabel('模型').click();
    const offered = page.getByRole('listbox').getByRole('option');
    await offered.first().waitFor();
    expect(await offered.allInnerTexts()).toEqual(['e2e-broken', 'e2e-chat', 'e2e-slow']);
    await page.screenshot({ path: `${SHOTS}/playground-model-picker-desktop-light.png` });
    await page.getByRole('option', { name: 'e2e-chat', exact: true }).click();
    await page.getByTestId('chat-input').fill('show me code');
    await page.getByTestId('chat-send').click();
    const answer = page.getByTestId('chat-answer').last();
    await answer.locator('code .hljs-keyword', { hasText: 'const' }).waitFor();
    await answer.locator('strong', { hasText: 'now' }).waitFor();
    expect(await page.getByTestId('chat-user').innerText()).toContain('show me code');
    const sent = gw.fake.received.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    expect(sent.body).toMatchObject({ model: 'e2e-chat', stream: true, messages: [{ role: 'user', content: 'show me code' }] });
    await page.screenshot({ path: `${SHOTS}/playground-desktop-light.png` });

    // a visible chat client opens in a frame with the key; the conversation survives the visit
    // the client itself is not loaded: the test's storage init script would fail inside a foreign frame
    await page.context().route('https://vercel.ddaiai.com/**', (r) => r.abort());
    await page.getByRole('tab', { name: 'ChatGPT Web & Midjourney' }).click();
    const frame = page.locator('iframe[title="ChatGPT Web & Midjourney"]');
    await frame.waitFor();
    expect(decodeURIComponent((await frame.getAttribute('src'))!)).toMatch(/"key":"sk-[0-9a-zA-Z]{48}"/);
    // Sandboxed: the chat client runs, but cannot navigate the console away.
    expect(await frame.getAttribute('sandbox')).toMatch(/allow-scripts/);
    expect(await frame.getAttribute('sandbox')).not.toMatch(/allow-top-navigation/);
    await page.getByRole('tab', { name: '对话' }).click();
    expect(await page.getByTestId('chat-user').innerText()).toContain('show me code');
  });

  it('stops a slow answer half-way and keeps what arrived', async () => {
    await chooseModel('e2e-slow');
    await page.getByTestId('chat-input').fill('count slowly');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.getByTestId('chat-answer').last();
    await answer.getByText('word3', { exact: false }).waitFor();
    await page.getByTestId('chat-stop').click();
    await answer.getByText('已停止').waitFor();
    const text = await answer.innerText();
    expect(text).not.toContain('word39');
    await page.getByTestId('chat-send').waitFor();
  });

  it('counts the requests on the dashboard', async () => {
    // a stopped stream is billed once the gateway has read the rest of the upstream answer
    await expect
      .poll(
        async () => {
          await gw.flush();
          await page.goto('/panel/dashboard');
          await page.getByTestId('stat-requests-value').waitFor();
          return page.getByTestId('stat-requests-value').innerText();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe('2');
    expect(Number((await page.getByTestId('stat-cost-value').innerText()).replace('$', ''))).toBeGreaterThan(0);
    await page.getByTestId('model-pie').locator('svg').first().waitFor();
    await page.getByTestId('week-model-chart').locator('.apexcharts-bar-area:not([val="0"])').first().waitFor();
    const today = page.getByTestId('usage-table').locator('tbody tr').first();
    expect(await today.innerText()).toMatch(/\b2\b/);
    await page.waitForTimeout(600); // chart animations
    await page.screenshot({ path: `${SHOTS}/dashboard-desktop-light.png`, fullPage: true });
  });

  it('opens a chat client with the playground key and hands out the invite link', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.context().route('https://app.nextchat.dev/**', (r) => r.fulfill({ contentType: 'text/html', body: '<p>chat client</p>' }));
    const key = (await c.server.ctx.db.selectFrom('tokens').select('key').where('name', '=', 'sys_playground').executeTakeFirstOrThrow()).key;
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('quick-start').getByRole('button', { name: 'ChatGPT Next' }).click()]);
    await expect.poll(() => decodeURIComponent(popup.url())).toContain(`"key":"sk-${key}"`);
    expect(decodeURIComponent(popup.url())).not.toContain('sk-sk-');
    await popup.close();

    await page.getByTestId('invite-card').getByRole('button', { name: '生成' }).click();
    await expect.poll(() => page.getByTestId('invite-link').inputValue()).toMatch(/\/register\?aff=\w+$/);
    const link = await page.getByTestId('invite-link').inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.getByTestId('invite-card').getByRole('button', { name: '复制' }).waitFor();
  });

  it('lists the requests in the user log with cost, speed and breakdown, filtered by model', async () => {
    await page.goto('/panel/log');
    const rows = page.getByTestId('table-row');
    // the two chats and the administrator's quota grant
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3); // log rows land in batches
    await page.getByTestId('log-tab-consume').click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByRole('columnheader', { name: '用户' }).count()).toBe(0);
    await page.getByTestId('filter-model_name').fill('e2e-chat');
    await page.getByTestId('filter-search').click();
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    expect(await row.innerText()).toMatch(/e2e-chat[\s\S]*流式/);
    expect(await row.getByTestId('log-cost').innerText()).toMatch(/^\$0\.\d{6}$/);
    await row.getByText(/^\d+\.\d{2} S$/).first().waitFor();
    await row.getByText(/^\d+ t\/s$/).waitFor();
    await page.getByTestId('header-hint-duration').hover();
    await page.getByRole('tooltip', { name: /t\/s/ }).waitFor();
    await row.getByRole('button', { name: '展开' }).click();
    const detail = page.getByTestId('quota-detail');
    await detail.getByText('最终计算').waitFor();
    expect(await detail.innerText()).toContain('输入: $20000.0000 /M');
    await page.screenshot({ path: `${SHOTS}/log-desktop-light.png` });
    await page.getByTestId('log-tab-system').click();
    await page.getByTestId('table-empty').waitFor();
    // A user sees their own failures (with the generic reason only; upstream's words stay with administrators).
    expect(await page.getByTestId('log-tab-error').count()).toBe(1);

    // hidden columns stay hidden after a reload
    await page.getByTestId('column-settings').click();
    await page.getByRole('menuitem', { name: '令牌' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('columnheader', { name: '令牌' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('columnheader', { name: '模型' }).waitFor();
    expect(await page.getByRole('columnheader', { name: '令牌' }).count()).toBe(0);
    await page.getByTestId('column-settings').click();
    await page.getByRole('menuitem', { name: '令牌' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: '令牌' }).waitFor();
  });

  it('shows administrators every user with username and channel columns', async () => {
    const admin = await c.open({ width: 1600 });
    await signIn(admin, 'root', ROOT_PASSWORD);
    await admin.goto('/panel/log');
    await admin.getByRole('columnheader', { name: '用户' }).waitFor();
    await admin.getByTestId('filter-username').fill('chatter');
    await admin.getByTestId('filter-search').click();
    await admin.getByTestId('log-tab-error').getByText('错误').waitFor();
    await admin.screenshot({ path: `${SHOTS}/log-admin-desktop-light.png` });
    await admin.getByTestId('log-tab-consume').click();
    await expect.poll(() => admin.getByTestId('table-row').count()).toBe(2);
    expect(await admin.getByTestId('table-row').first().innerText()).toMatch(/\(e2e-\d\)[\s\S]*chatter/);
    await admin.getByTestId('filter-username').fill('nobody');
    await admin.getByTestId('filter-search').click();
    await admin.getByTestId('table-empty').waitFor();
  });

  it('shows administrators the site totals, period charts and multi-user statistics with a CSV', async () => {
    const admin = await c.open({ width: 1440 });
    await signIn(admin, 'root', ROOT_PASSWORD);
    await admin.goto('/panel/analytics');
    await expect.poll(() => admin.getByTestId('card-users-value').innerText()).toBe('2');
    expect(await admin.getByTestId('card-channels-value').innerText()).toBe('5'); // three chat channels and two for the non-chat models
    await expect.poll(() => admin.getByTestId('chart-cost-total').innerText()).toMatch(/\$[1-9]\d*\.\d{3}|\$0\.(?!000)\d{3}/);
    expect(await admin.getByTestId('chart-requests-total').innerText()).toContain('2');
    await admin.getByLabel('分组方式').click();
    await admin.getByRole('option', { name: '模型', exact: true }).click();
    await admin.getByTestId('period-search').click();
    await admin.getByTestId('chart-cost').locator('.apexcharts-legend-text', { hasText: 'e2e-chat' }).waitFor();
    await admin.waitForTimeout(600);
    await admin.screenshot({ path: `${SHOTS}/analytics-desktop-light.png`, fullPage: true });

    await admin.getByTestId('analytics-tab-multi').click();
    await admin.getByTestId('multi-usernames').fill('chatter, root');
    await admin.getByTestId('multi-search').click();
    const card = admin.getByTestId('user-stats-chatter');
    await card.waitFor();
    expect(await card.innerText()).toMatch(/请求数\s+2/);
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('multi-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^multi_user_stats_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        let text = '';
        stream.on('data', (d: Buffer) => (text += d.toString()));
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
      });
    });
    expect(csv.split(/\r?\n/).find((l) => l.startsWith('chatter,'))).toMatch(/^chatter,2,/);
    await admin.waitForTimeout(800); // chart animation
    await admin.screenshot({ path: `${SHOTS}/analytics-multi-desktop-light.png`, fullPage: true });
  });

  it('shows the gateway error when a request fails', async () => {
    await page.goto('/panel/playground');
    await chooseModel('e2e-broken');
    await page.getByTestId('chat-input').fill('a very long prompt');
    await page.getByTestId('chat-send').click();
    await expect.poll(() => page.getByTestId('chat-error').innerText()).toContain('prompt is too long for this model');
    await page.getByTestId('chat-send').waitFor();
  });

  it('fits a phone in dark mode', async () => {
    const phone = await c.open({ width: 375, height: 780 });
    await phone.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(phone, 'chatter', 'password123');
    await expect.poll(() => phone.getByTestId('stat-requests-value').innerText()).toBe('2');
    await noSidewaysScroll(phone);
    await phone.waitForTimeout(600);
    await phone.screenshot({ path: `${SHOTS}/dashboard-phone-dark.png`, fullPage: true });
    await phone.goto('/panel/playground');
    await phone.getByTestId('playground-chat').waitFor();
    await noSidewaysScroll(phone);
    await phone.screenshot({ path: `${SHOTS}/playground-phone-dark.png` });
    await phone.goto('/panel/log');
    await phone.getByTestId('table-row').first().waitFor();
    await noSidewaysScroll(phone);
    await phone.screenshot({ path: `${SHOTS}/log-phone-dark.png` });
  });

  it('takes the screen gallery in both themes at both widths', async () => {
    const screens: Array<[string, string, string]> = [
      ['chatter', 'password123', '/panel/dashboard'],
      ['chatter', 'password123', '/panel/log'],
      ['chatter', 'password123', '/panel/playground'],
      ['chatter', 'password123', '/panel/profile'],
      ['root', ROOT_PASSWORD, '/panel/analytics'],
    ];
    for (const [theme, width] of [
      ['dark', 1366],
      ['light', 375],
    ] as const) {
      for (const [user, password, path] of screens) {
        const p = await c.open({ width, height: width > 400 ? 860 : 780 });
        await p.addInitScript((t) => localStorage.setItem('theme', t), theme);
        await signIn(p, user, password);
        await p.goto(path);
        await p.getByTestId('breadcrumbs').waitFor();
        await p.waitForLoadState('networkidle');
        await p.waitForTimeout(1500); // chart animations
        await noSidewaysScroll(p);
        const name = `${path.split('/').pop()}-${width > 400 ? 'desktop' : 'phone'}-${theme}`;
        await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
        await p.context().close();
      }
    }
  }, 240_000);
});
