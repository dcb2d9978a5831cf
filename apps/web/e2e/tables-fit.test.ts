import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import OpenAI from 'openai';
import { ApiClient } from '../../server/test/harness';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';
import { startGateway } from './gateway';

/**
 * Every table screen fits its card at 1440×900 and 1366×768 (issue 38.1), light and dark, with its
 * date presets on one line: as root with the admin columns and as a user, in all four languages, with long real values (40-character model names, 30-character channel
 * names, 200-character prompts). A table that scrolls sideways hides its last columns; one that
 * fits needs no pinned column over its data.
 */
const here = dirname(fileURLToPath(import.meta.url));
const features = join(here, '../src/features');
const LANGS = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;
const MODEL = 'gpt-4o-mini-search-preview-2025-03-11-ft';
const MODEL2 = 'claude-3-7-sonnet-20250219-thinking-long';
const CHANNEL = 'OpenAI primary pool eastus-001';
const TOKEN = 'production-backend-service-01';
const PROMPT = `${'a lighthouse on a basalt cliff at dawn, volumetric light through sea mist, waves breaking below, '.repeat(3)}`.slice(0, 200);
const month = new Date().toISOString().slice(0, 7);
const ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Crect width='24' height='24' rx='6' fill='%2322a06b'/%3E%3C/svg%3E";

interface TableScreen {
  path: string;
  who: 'root' | 'user';
  /** Clicks that bring the table on screen (a tab, a view toggle). */
  prep?: (page: Page) => Promise<void>;
}

/** Every panel screen showing a DataTable, from the router: a feature's screen.ts paths whose feature uses the component. */
function routedTableScreens(): string[] {
  const paths: string[] = [];
  for (const feature of readdirSync(features)) {
    const dir = join(features, feature);
    const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx$/.test(f) && !/\.test\.tsx$/.test(f));
    if (!sources.some((f) => /<DataTable\b/.test(readFileSync(join(dir, f), 'utf8')))) continue;
    const screen = readFileSync(join(dir, 'screen.ts'), 'utf8');
    for (const m of screen.matchAll(/path: '(\/panel\/[^']+)'/g)) paths.push(m[1]);
  }
  return paths.sort();
}

const SCREENS: TableScreen[] = [
  { path: '/panel/dashboard', who: 'root' },
  { path: '/panel/log', who: 'root' },
  { path: '/panel/log', who: 'user' },
  { path: '/panel/channel', who: 'root' },
  { path: '/panel/user', who: 'root' },
  { path: '/panel/token', who: 'root' },
  { path: '/panel/token', who: 'user' },
  { path: '/panel/redemption', who: 'root' },
  { path: '/panel/user_group', who: 'root' },
  { path: '/panel/midjourney', who: 'root' },
  { path: '/panel/midjourney', who: 'user' },
  { path: '/panel/task', who: 'root' },
  { path: '/panel/task', who: 'user' },
  { path: '/panel/pricing#single', who: 'root' },
  { path: '/panel/pricing#multiple', who: 'root' },
  { path: '/panel/model_price', who: 'user', prep: (p) => p.locator('button[value=list]').click() },
  { path: '/panel/plan', who: 'root' },
  { path: '/panel/payment#order', who: 'root' },
  { path: '/panel/payment#gateway', who: 'root' },
  { path: '/panel/telegram', who: 'root' },
  { path: '/panel/audit_log', who: 'root' },
  { path: '/panel/invoice', who: 'user' },
  { path: '/panel/mcp', who: 'root' },
  { path: `/panel/invoice/detail/${month}-01`, who: 'user' },
];

/**
 * Date-preset chip groups whose chips do not sit on one line (issue 38.11, "wrapping raggedly"):
 * "group: top1/top2/…" for each group with more than one chip top.
 */
async function raggedPresets(page: Page): Promise<{ shown: number; ragged: string[] }> {
  return page.evaluate(() => {
    const groups = [...document.querySelectorAll<HTMLElement>('[data-testid$="-presets"]')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ id: el.dataset.testid!, tops: [...el.children].map((c) => Math.round(c.getBoundingClientRect().top)) }));
    return { shown: groups.length, ragged: groups.filter((g) => new Set(g.tops).size > 1).map((g) => `${g.id}: ${g.tops.join('/')}`) };
  });
}

/** Desktop sizes every table screen must fit (issue 38.1/38.6): the common laptop and the small one. */
const DESKTOPS = [
  [1440, 900],
  [1366, 768],
] as const;
/** Two languages in each theme: every size is seen light and dark. */
const DARK: readonly string[] = ['zh_HK', 'ja_JP'];

/** Tables on the page wider than their container: "path: scrollWidth > clientWidth". */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.MuiTableContainer-root')]
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => `${el.scrollWidth} > ${el.clientWidth}`),
  );
}

async function waitForRows(page: Page) {
  await page.locator('[data-testid=data-table]').first().waitFor();
  // rows, the empty state or an error: anything but the skeleton
  await page.locator('[data-testid=table-row], [data-testid=table-empty], [data-testid=table-error]').first().waitFor();
  await page.waitForLoadState('networkidle');
}

describe.skipIf(!chromiumAvailable)('tables fit their card at 1440×900 and 1366×768', () => {
  let c: Console;
  beforeAll(async () => {
    c = await startConsole();
    const gw = await startGateway(c);
    await gw.addModel(MODEL, { usage: { prompt: 1234, completion: 5678 } }, 2);
    await gw.addModel(MODEL2, { usage: { prompt: 99, completion: 12 } }, 3);
    await c.root.post('/api/user/quota/1', { quota: 100_000_000 });
    const channels = (await c.root.get('/api/channel/')).body.data.data as Array<{ id: number }>;
    for (const ch of channels) expect((await c.root.put('/api/channel/', { id: ch.id, name: CHANNEL })).body.success).toBe(true);
    const userId = await gw.addUser('tablewatcher', 'password123');
    const user = new ApiClient(c.server.app);
    await user.login('tablewatcher', 'password123');
    for (const [client, name] of [[user, TOKEN], [c.root, `${TOKEN.slice(0, 27)}-rt`]] as const) {
      expect((await client.post('/api/token/', { name, unlimited_quota: true })).body.success).toBe(true);
      const key = (await client.get('/api/token/')).body.data.data.find((t: { name: string }) => t.name === name).key;
      const sdk = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${c.base}/v1`, maxRetries: 0 });
      for (const model of [MODEL, MODEL2]) await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }], stream: model === MODEL2 });
    }
    await gw.flush();
    expect((await c.root.post('/api/channel/', { type: 1, name: `${CHANNEL.slice(0, 26)}-tag`, key: 'k-tag', models: `${MODEL},${MODEL2}`, group: 'vip,svip', tag: 'enterprise-fallback' })).body.success).toBe(true);
    await c.root.post('/api/redemption/', { name: 'spring-promo-2026-vip', quota: 500000, count: 2 });
    await c.root.post('/api/user_group/', { symbol: 'enterprise_premium_tier', name: 'Enterprise premium tier (annual)', ratio: 0.85, api_rate: 1200, public: true, promotion: true, min: 1000, max: 100000 });
    await c.root.post('/api/option/telegram/', { command: 'balance_and_usage_report', description: 'Shows your balance, the usage of this month and the plan window', parse_mode: 'MarkdownV2', reply_message: 'Your balance is {{balance}}' });
    const plan = await c.root.post('/api/plan/', { name: 'Professional monthly (annual)', price: 129.99, currency: 'USD', duration_kind: 'month', duration_count: 1, window_kind: '5h', window_quota: 2_000_000, models: [MODEL, MODEL2] });
    await c.root.post('/api/plan/grant', { user_id: userId, plan_id: plan.body.data.id });
    await c.root.post('/api/payment/', { type: 'epay', name: 'Alipay via Epay (CNY, mainland)', icon: 'i', currency: 'CNY', percent_fee: 0.03, config: JSON.stringify({ pay_domain: 'https://pay.example.com', partner_id: '1001', key: 'K', pay_type: 'alipay' }) });
    const [gateway] = (await user.get('/api/user/payment')).body.data;
    await user.post('/api/user/order', { uuid: gateway.uuid, amount: 120 });
    const db = c.server.ctx.db;
    const ms = Date.now();
    const s = Math.floor(ms / 1000);
    // MCP servers with long names and URLs, one healthy and one failing (written directly: no upstream runs here).
    const tools = Array.from({ length: 12 }, (_, i) => ({ name: `search_repository_issues_${i}`, description: PROMPT, input_schema: { type: 'object' } }));
    await db.insertInto('mcp_servers').values({ name: 'enterprise-knowledge-base', transport: 'streamable-http', url: 'https://mcp.enterprise-knowledge-base.example.com/v2/mcp/streamable', header_names: '["x-api-key","x-tenant"]', groups: 'default,vip,svip', price: 2500, timeout_ms: 30_000, enabled: 1, catalogue: JSON.stringify({ tools, resources: [], prompts: [] }), protocol_version: '2025-11-25', last_refresh_time: s - 60, last_error: '', created_time: s - 3600 }).execute();
    await db.insertInto('mcp_servers').values({ name: 'legacy-ticketing-sse-bridge', transport: 'sse', url: 'https://legacy-ticketing.internal.example.org:8443/mcp/sse', header_names: '[]', groups: '', price: 0, timeout_ms: 30_000, enabled: 0, catalogue: null, protocol_version: '', last_refresh_time: s - 30, last_error: PROMPT, created_time: s - 1800 }).execute();
    for (const uid of [1, userId]) {
      await db.insertInto('midjourneys').values({ user_id: uid, code: 1, action: 'IMAGINE', mj_id: `17100000000${uid}0001`, prompt: PROMPT, prompt_en: PROMPT, submit_time: ms - 120_000, start_time: ms - 118_000, finish_time: ms - 40_000, image_url: ICON, status: 'SUCCESS', progress: '100%', channel_id: 1, quota: 25_000 }).execute();
      await db.insertInto('midjourneys').values({ user_id: uid, code: 21, action: 'UPSCALE', mj_id: `17100000000${uid}0002`, prompt: PROMPT, prompt_en: '', fail_reason: PROMPT, submit_time: ms - 60_000, start_time: ms - 59_000, finish_time: ms - 1000, status: 'FAILURE', progress: '40%', channel_id: 1 }).execute();
      await db.insertInto('tasks').values({ user_id: uid, task_id: `kling-${uid}-${'x'.repeat(30)}`, platform: 'kling', action: 'text2video', status: 'FAILURE', fail_reason: PROMPT, channel_id: 1, submit_time: s - 500, start_time: s - 499, finish_time: s - 10, progress: 0, quota: 40_000, created_at: s - 500, updated_at: s - 10 }).execute();
      await db.insertInto('tasks').values({ user_id: uid, task_id: `suno-${uid}-${'y'.repeat(30)}`, platform: 'suno', action: 'MUSIC', status: 'IN_PROGRESS', channel_id: 1, submit_time: s - 50, start_time: s - 49, finish_time: 0, progress: 40, data: JSON.stringify([{ title: PROMPT, prompt: PROMPT }]), created_at: s - 50, updated_at: s - 10 }).execute();
    }
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
  });

  it('covers every routed table screen', () => {
    const covered = new Set(SCREENS.map((x) => x.path.replace(/#.*$/, '').replace(`${month}-01`, ':date')));
    expect(routedTableScreens().filter((p) => !covered.has(p))).toEqual([]);
  });

  for (const lang of LANGS) {
    const theme = DARK.includes(lang) ? 'dark' : 'light';
    it(`fits at 1440×900 and 1366×768 in ${lang} (${theme})`, { timeout: 360_000 }, async () => {
      const pages = { root: await c.open({ lang, width: 1440, height: 900 }), user: await c.open({ lang, width: 1440, height: 900 }) };
      for (const page of Object.values(pages)) await page.addInitScript((th) => localStorage.setItem('theme', th), theme);
      await signIn(pages.root, 'root', ROOT_PASSWORD);
      await signIn(pages.user, 'tablewatcher', 'password123');
      // the theme took: dark paper or light
      const paper = await pages.root.evaluate(() => getComputedStyle(document.body).backgroundColor);
      if (theme === 'dark') expect(paper).toBe('rgb(13, 17, 23)');
      else expect(paper).not.toBe('rgb(13, 17, 23)');
      const wide: string[] = [];
      const ragged: string[] = [];
      let presets = 0;
      for (const screen of SCREENS) {
        const page = pages[screen.who];
        await page.setViewportSize({ width: DESKTOPS[0][0], height: DESKTOPS[0][1] });
        await page.goto(screen.path);
        await screen.prep?.(page);
        await waitForRows(page);
        for (const [width, height] of DESKTOPS) {
          await page.setViewportSize({ width, height });
          // a resize reflows at once; the columns folded at a breakpoint follow on the next render
          await expect.poll(() => overflowing(page)).toEqual([]).catch(() => undefined);
          for (const w of await overflowing(page)) wide.push(`${screen.who} ${screen.path} at ${width}: ${w}`);
          const chips = await raggedPresets(page);
          presets += chips.shown;
          for (const r of chips.ragged) ragged.push(`${screen.who} ${screen.path} at ${width}: ${r}`);
          const name = `tables-${screen.who}-${screen.path.replace(/[^a-z0-9]+/gi, '_')}-${lang}-${width}-${theme}`;
          await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
        }
      }
      expect(wide).toEqual([]);
      expect(ragged).toEqual([]);
      // logs, tasks, Midjourney and orders show presets at both sizes (the check saw them)
      expect(presets).toBeGreaterThanOrEqual(8);
      await pages.root.context().close();
      await pages.user.context().close();
    });
  }

  it('keeps the analytics date presets on one line at 1440×900 and 1366×768, light and dark', async () => {
    for (const [lang, theme] of [['en_US', 'light'], ['ja_JP', 'dark']] as const) {
      const page = await c.open({ lang, width: 1440, height: 900 });
      await page.addInitScript((th) => localStorage.setItem('theme', th), theme);
      await signIn(page, 'root', ROOT_PASSWORD);
      await page.goto('/panel/analytics');
      await page.getByTestId('period-presets').waitFor();
      for (const [width, height] of DESKTOPS) {
        await page.setViewportSize({ width, height });
        const chips = await raggedPresets(page);
        expect(chips.shown, `${lang} ${width}`).toBeGreaterThan(0);
        expect(chips.ragged, `${lang} ${width}`).toEqual([]);
        await noSidewaysScroll(page);
        await page.screenshot({ path: `${SHOTS}/analytics-presets-${lang}-${width}-${theme}.png` });
      }
      await page.context().close();
    }
  });

  it('keeps phones usable at 390×844, light (root) and dark (user): cards, no sideways page scroll', { timeout: 240_000 }, async () => {
    const pages = { root: await c.open({ lang: 'en_US', width: 390, height: 844 }), user: await c.open({ lang: 'en_US', width: 390, height: 844 }) };
    await pages.user.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(pages.root, 'root', ROOT_PASSWORD);
    await signIn(pages.user, 'tablewatcher', 'password123');
    for (const screen of SCREENS) {
      const page = pages[screen.who];
      await page.goto(screen.path);
      await screen.prep?.(page);
      await waitForRows(page);
      await noSidewaysScroll(page);
      expect(await page.locator('[data-testid=data-table][data-layout=table]').count(), screen.path).toBe(0);
      await page.screenshot({ path: `${SHOTS}/tables-phone-${screen.who}-${screen.path.replace(/[^a-z0-9]+/gi, '_')}-${screen.who === 'user' ? 'dark' : 'light'}.png`, fullPage: true });
    }
  });
});
