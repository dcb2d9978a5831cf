import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, ROOT_PASSWORD, SHOTS, signIn, startConsole, unfoldMenu, type Console } from './browser';

const UPSTREAM_TOKEN = 'upstream-bearer-7f3a';
const UPSTREAM_HEADER = 'team-platform-91c2';
const TOOLS = [
  { name: 'search_issues', description: 'Search the issues of a repository', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'create_issue', description: 'Open an issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
];

/** A minimal streamable-HTTP MCP server (JSON answers) that insists on the credential the gateway must send. */
function fakeMcp(): Server {
  return createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    if (req.headers.authorization !== `Bearer ${UPSTREAM_TOKEN}` || req.headers['x-team'] !== UPSTREAM_HEADER) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    void readJson(req).then((msg) => {
      const one = (m: { id?: unknown; method?: string; params?: { protocolVersion?: string } }) => {
        if (m.id === undefined) return undefined; // a notification
        if (m.method === 'initialize') {
          const asked = m.params?.protocolVersion ?? '2025-06-18';
          const version = ['2025-06-18', '2025-11-25'].includes(asked) ? asked : '2025-06-18';
          return { jsonrpc: '2.0', id: m.id, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'fake-github', version: '1.0.0' } } };
        }
        if (m.method === 'tools/list') return { jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } };
        if (m.method === 'resources/list') return { jsonrpc: '2.0', id: m.id, result: { resources: [] } };
        if (m.method === 'prompts/list') return { jsonrpc: '2.0', id: m.id, result: { prompts: [] } };
        if (m.method === 'ping') return { jsonrpc: '2.0', id: m.id, result: {} };
        return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } };
      };
      const answers = (Array.isArray(msg) ? msg : [msg]).map(one).filter(Boolean);
      if (answers.length === 0) {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'fake-session-1' });
      res.end(JSON.stringify(Array.isArray(msg) ? answers : answers[0]));
    });
  });
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
}

/** Listens on loopback below the ephemeral range (a random port in 20000–31999, retried when taken). */
async function listenLow(server: Server): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) return port;
  }
  throw new Error('no free port for the fake MCP server');
}

/**
 * The MCP servers screen against the real admin API (issue 40 point 7) and a loopback MCP server:
 * register with a header and a bearer credential, refresh (the gateway must send both), edit without
 * retyping the secrets, a failing server's error, the token's MCP tools, delete.
 */
describe.skipIf(!chromiumAvailable)('MCP servers in Chromium', () => {
  let c: Console;
  let page: Page;
  let upstream: Server;
  let upstreamUrl = '';
  let closedUrl = '';
  beforeAll(async () => {
    upstream = fakeMcp();
    upstreamUrl = `http://127.0.0.1:${await listenLow(upstream)}/mcp`;
    // a port that was listening and is now closed: connection refused
    const gone = createServer();
    closedUrl = `http://127.0.0.1:${await listenLow(gone)}/mcp`;
    await new Promise((r) => gone.close(r));
    c = await startConsole();
    page = await c.open({ lang: 'en_US', width: 1366, height: 768 });
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      console.log('PAGE ERRORS', c.errors);
      await page.screenshot({ path: `${SHOTS}/fail-mcp-${ctx.task.name.slice(0, 20)}.png` });
    }
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await new Promise((r) => upstream?.close(r));
  });

  const dialog = () => page.getByTestId('mcp-dialog');
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
  const listed = async () => (await c.root.get('/api/mcp_server/?page=1&size=100')).body;
  const server = async (name: string) => {
    const body = await listed();
    const rows = Array.isArray(body.data) ? body.data : body.data.data;
    return rows.find((s: { name: string }) => s.name === name);
  };

  it('registers a server from the menu with a header and a bearer credential, then lists its tools', async () => {
    await page.goto('/panel/dashboard');
    await unfoldMenu(page);
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'MCP servers', exact: true }).click();
    await page.waitForURL(/\/panel\/mcp$/);
    await page.getByTestId('table-empty').waitFor();

    await page.getByTestId('mcp-create').click();
    await dialog().getByLabel('Name', { exact: false }).first().fill('GitHub');
    await dialog().getByLabel('Server URL').fill(upstreamUrl);
    await page.getByTestId('mcp-submit').click();
    await dialog().getByText('Only lower-case letters, digits, _ and -, starting with a letter or digit').waitFor();
    await dialog().locator('input[name=name]').fill('github');
    await page.getByTestId('mcp-header-add').click();
    await page.getByTestId('mcp-header-name-0').fill('X-Team');
    await page.getByTestId('mcp-header-value-0').fill(UPSTREAM_HEADER);
    await dialog().getByRole('combobox', { name: 'Credential' }).click();
    await page.getByRole('option', { name: 'Bearer token', exact: true }).click();
    await dialog().locator('input[name=bearer_token]').fill(UPSTREAM_TOKEN);
    await page.getByTestId('mcp-submit').click();
    await row('github').waitFor();

    const stored = await server('github');
    expect(stored).toMatchObject({ name: 'github', transport: 'streamable-http', url: upstreamUrl, header_names: ['X-Team'], auth_type: 'bearer', enabled: true });
    // the credential never comes back
    const text = JSON.stringify(await listed());
    expect(text).not.toContain(UPSTREAM_TOKEN);
    expect(text).not.toContain(UPSTREAM_HEADER);

    await page.getByTestId('mcp-refresh-github').click();
    const drawer = page.getByTestId('mcp-tools');
    await drawer.getByText('search_issues').waitFor();
    await drawer.getByText('Open an issue').waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await row('github').getByText('2 tools').waitFor();
    await row('github').getByText('Healthy').waitFor();
    expect((await server('github')).tool_count).toBe(2);
  });

  it('edits without showing or losing the stored secrets', async () => {
    await page.getByTestId('mcp-menu-github').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    expect(await page.getByTestId('mcp-header-name-0').inputValue()).toBe('X-Team');
    expect(await page.getByTestId('mcp-header-value-0').inputValue()).toBe('');
    expect(await dialog().locator('input[name=bearer_token]').inputValue()).toBe('');
    expect(await dialog().innerText()).not.toContain(UPSTREAM_TOKEN);
    await dialog().getByLabel('Price per call (quota)').fill('1000');
    await page.getByTestId('mcp-submit').click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(async () => (await server('github')).price).toBe(1000);
    // the gateway still sends the kept header and token: the refresh succeeds
    await page.getByTestId('mcp-refresh-github').click();
    await page.getByTestId('mcp-tools').getByText('create_issue').waitFor();
    await page.getByTestId('mcp-tools').getByRole('button', { name: 'Close' }).click();
    expect((await server('github')).last_error).toBe('');
  });

  it('shows a failing server with its error and switches a server off', async () => {
    expect((await c.root.post('/api/mcp_server/', { name: 'broken', transport: 'streamable-http', url: closedUrl, groups: '', price: 0, enabled: true })).body.success).toBe(true);
    await page.reload();
    await page.getByTestId('mcp-refresh-broken').click();
    await page.getByTestId('mcp-tools-error').waitFor();
    await page.getByTestId('mcp-tools').getByRole('button', { name: 'Close' }).click();
    await row('broken').getByText('Error').waitFor();
    expect((await server('broken')).last_error).not.toBe('');

    await page.getByLabel('Enable broken').click();
    await expect.poll(async () => (await server('broken')).enabled).toBe(false);
    await expect.poll(() => page.getByLabel('Enable broken').isChecked()).toBe(false);
  });

  it('takes screenshots at 1366×768 (light, dark) and 390×844', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => localStorage.setItem('theme', th), theme);
      for (const [w, h, kind] of [[1366, 768, 'desktop'], [390, 844, 'phone']] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.reload();
        await page.getByText('broken', { exact: true }).first().waitFor();
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(scroll).toBeLessThanOrEqual(client);
        await page.screenshot({ path: `${SHOTS}/mcp-servers-${kind}-${theme}.png` });
      }
    }
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it("saves a token's MCP tools", async () => {
    await page.goto('/panel/token');
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-dialog').getByLabel('Name', { exact: false }).first().fill('agent');
    await page.getByTestId('token-mcp-tools').locator('input').fill('github');
    await page.getByTestId('token-submit').click();
    await page.getByTestId('token-dialog').getByText('Use comma-separated server/tool patterns, e.g. github/*,search/web_search').waitFor();
    await page.getByTestId('token-mcp-tools').locator('input').fill('github/search_*, github/create_issue');
    await page.getByTestId('token-submit').click();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(async () => (await c.root.get('/api/token/?page=1&size=10')).body.data.data.find((t: { name: string }) => t.name === 'agent')?.mcp_tools)
      .toBe('github/search_*,github/create_issue');
  });

  it('deletes a server after the confirm', async () => {
    await page.goto('/panel/mcp');
    await page.getByTestId('mcp-menu-broken').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Delete broken?', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await server('broken')) === undefined).toBe(true);
    await row('broken').waitFor({ state: 'detached' });
  });
});
