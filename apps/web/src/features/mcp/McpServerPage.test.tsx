import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { McpServer } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { makeStore } from '../../store';
import McpServerPage from './McpServerPage';
import McpServerDialog from './McpServerDialog';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'mcp', 'server-text']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
});

const github: McpServer = {
  id: 1,
  name: 'github',
  transport: 'streamable-http',
  url: 'https://mcp.github.test/mcp',
  header_names: ['X-Org'],
  auth_type: 'bearer',
  groups: 'default,vip',
  price: 500,
  timeout_ms: 30_000,
  enabled: true,
  tool_count: 2,
  tools: [
    { name: 'search_issues', description: 'Search issues', input_schema: {} },
    { name: 'create_issue', description: 'Open an issue', input_schema: {} },
  ],
  protocol_version: '2025-06-18',
  last_refresh_time: 1_780_000_000,
  last_error: '',
  created_time: 1_770_000_000,
};
const broken: McpServer = { ...github, id: 2, name: 'legacy', transport: 'sse', header_names: [], auth_type: 'none', groups: '', price: 0, tool_count: 0, tools: [], enabled: false, last_error: 'connect ECONNREFUSED' };

type Call = { url: string; method: string; body?: Record<string, unknown> };
function fakeServer(answer: (method: string, path: string, body?: Record<string, unknown>) => unknown) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    calls.push({ url, method, body });
    try {
      const data = await answer(method, url.split('?')[0], body);
      return new Response(JSON.stringify({ success: true, message: '', data }));
    } catch (e) {
      return new Response(JSON.stringify({ success: false, message: (e as Error).message }));
    }
  });
  return calls;
}
const listing = (rows: McpServer[]) => (method: string, path: string, _body?: unknown) => {
  if (method === 'GET' && path === '/api/mcp_server/') return { data: rows, page: 1, size: 10, total_count: rows.length };
  if (path === '/api/group/') return ['default', 'vip'];
  return null;
};

function show(ui = <McpServerPage />) {
  render(
    <Provider store={makeStore()}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/panel/mcp']}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
}

describe('MCP servers screen', { timeout: 40_000 }, () => {
  it('lists the servers from the API: transport, groups, price, tools, switch and the last error', async () => {
    const calls = fakeServer(listing([github, broken]));
    show();
    const row = (await screen.findByText('github')).closest('tr')!;
    expect(within(row).getByText('Streamable HTTP')).toBeTruthy();
    expect(within(row).getByText('vip')).toBeTruthy();
    expect(within(row).getByText('2 tools')).toBeTruthy();
    expect(within(row).getByText('Healthy')).toBeTruthy();
    expect((within(row).getByLabelText('Enable github') as HTMLInputElement).checked).toBe(true);
    const other = screen.getByText('legacy').closest('tr')!;
    expect(within(other).getByText('SSE (legacy)')).toBeTruthy();
    expect(within(other).getByText('All groups')).toBeTruthy();
    expect(within(other).getByText('Free')).toBeTruthy();
    expect(within(other).getByText('Error')).toBeTruthy();
    expect((within(other).getByLabelText('Enable legacy') as HTMLInputElement).checked).toBe(false);
    expect(calls[0].url).toMatch(/^\/api\/mcp_server\/\?page=1&size=\d+&order=-id$/);

    // the switch saves at once
    fireEvent.click(within(other).getByLabelText('Enable legacy'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ id: 2, enabled: true }));
  });

  it('says so when there is no server yet', async () => {
    fakeServer(listing([]));
    show();
    expect(await screen.findByText(/No MCP servers yet/)).toBeTruthy();
  });

  it('refreshes a server and shows the tools it answered in the drawer', async () => {
    const calls = fakeServer((method, path, body) => {
      if (method === 'POST' && path === '/api/mcp_server/1/refresh') return { ...github, tools: [{ name: 'search_code', description: 'Search code across repositories', input_schema: {} }], tool_count: 1 };
      return listing([github])(method, path, body);
    });
    show();
    fireEvent.click(await screen.findByTestId('mcp-refresh-github'));
    const drawer = await screen.findByTestId('mcp-tools');
    expect(await within(drawer).findByText('search_code')).toBeTruthy();
    expect(within(drawer).getByText('Search code across repositories')).toBeTruthy();
    expect(within(drawer).queryByText('create_issue')).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/mcp_server/1/refresh')).toBe(true);
    expect(toasts).toContain('Refreshed: 1 tool');
  });

  it('shows a refresh the upstream failed (answered in last_error) in the drawer, with no success toast', async () => {
    fakeServer((method, path, body) => {
      if (method === 'POST' && path.endsWith('/refresh')) return { ...github, last_error: 'connect ECONNREFUSED', tools: [], tool_count: 0 };
      return listing([github])(method, path, body);
    });
    show();
    fireEvent.click(await screen.findByTestId('mcp-refresh-github'));
    expect((await screen.findByTestId('mcp-tools-error')).textContent).toContain('ECONNREFUSED');
    expect(toasts.some((t) => t.startsWith('Refreshed'))).toBe(false);
  });

  it('shows a failed refresh in the drawer', async () => {
    fakeServer((method, path, body) => {
      if (method === 'POST' && path.endsWith('/refresh')) throw new Error('upstream answered 401');
      return listing([github])(method, path, body);
    });
    show();
    fireEvent.click(await screen.findByTestId('mcp-refresh-github'));
    expect((await screen.findByTestId('mcp-tools-error')).textContent).toContain('upstream answered 401');
  });

  it('deletes after the confirm', async () => {
    const calls = fakeServer(listing([github]));
    show();
    fireEvent.click(await screen.findByTestId('mcp-menu-github'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/Delete github\?/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/mcp_server/1'));
  });
});

describe('MCP server dialog', { timeout: 40_000 }, () => {
  it('refuses a bad name, a bad timeout and a header without a value, sending nothing', async () => {
    const calls = fakeServer(listing([]));
    show(<McpServerDialog open onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'GitHub Tools' } });
    fireEvent.change(screen.getByLabelText(/Server URL/), { target: { value: 'https://mcp.example.test/mcp' } });
    fireEvent.change(screen.getByLabelText('Timeout (seconds)'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('mcp-header-add'));
    fireEvent.change(screen.getByTestId('mcp-header-name-0'), { target: { value: 'X-Team' } });
    fireEvent.click(screen.getByTestId('mcp-submit'));
    expect(await screen.findByText('Only lower-case letters, digits, _ and -, starting with a letter or digit')).toBeTruthy();
    expect(screen.getByText('Enter whole seconds from 1 to 600')).toBeTruthy();
    expect(screen.getByText('Give the new header a value')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('creates a server with a header, a bearer credential, groups and a price', async () => {
    const calls = fakeServer(listing([]));
    const saved = vi.fn();
    show(<McpServerDialog open onClose={() => undefined} onSaved={saved} />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'github' } });
    fireEvent.change(screen.getByLabelText(/Server URL/), { target: { value: ' https://mcp.example.test/mcp ' } });
    fireEvent.click(screen.getByTestId('mcp-header-add'));
    fireEvent.change(screen.getByTestId('mcp-header-name-0'), { target: { value: 'X-Team' } });
    fireEvent.change(screen.getByTestId('mcp-header-value-0'), { target: { value: 'platform' } });
    fireEvent.mouseDown(within(screen.getByTestId('mcp-auth-type')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'Bearer token' }));
    fireEvent.click(screen.getByTestId('mcp-submit'));
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Bearer token/), { target: { value: 's3cret' } });
    fireEvent.change(screen.getByLabelText(/Price per call/), { target: { value: '1000' } });
    fireEvent.click(screen.getByTestId('mcp-submit'));
    await waitFor(() => expect(saved).toHaveBeenCalledOnce());
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/mcp_server/',
      body: { name: 'github', transport: 'streamable-http', url: 'https://mcp.example.test/mcp', headers: { 'X-Team': 'platform' }, auth: { type: 'bearer', token: 's3cret' }, groups: '', price: 1000, timeout_ms: 30000, enabled: true },
    });
  });

  it('never shows stored secrets on edit and leaves them out of the save unless retyped', async () => {
    const calls = fakeServer(listing([github]));
    show(<McpServerDialog open server={github} onClose={() => undefined} onSaved={() => undefined} />);
    expect((screen.getByTestId('mcp-header-name-0') as HTMLInputElement).value).toBe('X-Org');
    const value = screen.getByTestId('mcp-header-value-0') as HTMLInputElement;
    expect(value.value).toBe('');
    expect(value.placeholder).toBe('Leave empty to keep');
    const token = screen.getByLabelText(/^Bearer token/) as HTMLInputElement;
    expect(token.value).toBe('');
    expect(token.placeholder).toBe('Leave empty to keep the stored one');
    expect(screen.getByText('Stored credential: Bearer token (never shown)')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/Price per call/), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('mcp-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!.body!;
    expect(put).toMatchObject({ id: 1, name: 'github', price: 0, groups: 'default,vip', timeout_ms: 30000 });
    expect('headers' in put).toBe(false);
    expect('auth' in put).toBe(false);

    // a new header sends the stored one as '' (keep) beside it; a retyped token replaces the old one
    cleanup();
    calls.length = 0;
    show(<McpServerDialog open server={github} onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.click(screen.getByTestId('mcp-header-add'));
    fireEvent.change(screen.getByTestId('mcp-header-name-1'), { target: { value: 'X-Env' } });
    fireEvent.change(screen.getByTestId('mcp-header-value-1'), { target: { value: 'prod' } });
    fireEvent.change(screen.getByLabelText(/^Bearer token/), { target: { value: 'rotated' } });
    fireEvent.click(screen.getByTestId('mcp-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ headers: { 'X-Org': '', 'X-Env': 'prod' }, auth: { type: 'bearer', token: 'rotated' } });
  });
});
