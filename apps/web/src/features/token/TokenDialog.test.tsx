import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../../lib/i18n';
import { makeStore } from '../../store';
import { login } from '../../store/account';
import TokenDialog from './TokenDialog';
import NewKeyDialog from './NewKeyDialog';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'token']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
});

type Call = { url: string; method: string; body?: unknown };
function fakeServer(answers: Record<string, unknown>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const path = url.split('?')[0];
    const data = answers[`${method} ${path}`];
    if (data instanceof Error) return new Response(JSON.stringify({ success: false, message: data.message }), { status: 200 });
    return new Response(JSON.stringify({ success: true, message: '', data }), { status: 200 });
  });
  return calls;
}

function show(props: Partial<Parameters<typeof TokenDialog>[0]> = {}) {
  const store = makeStore();
  store.dispatch(login({ id: 1, username: 'u', role: 1 } as never));
  const onSaved = vi.fn();
  render(
    <Provider store={store}>
      <QueryClientProvider client={new QueryClient()}>
        <TokenDialog open onClose={() => undefined} onSaved={onSaved} {...props} />
      </QueryClientProvider>
    </Provider>,
  );
  return onSaved;
}

const groups = { default: { symbol: 'default', name: 'Default', ratio: 1 }, vip: { symbol: 'vip', name: 'VIP', ratio: 2 } };

describe('token dialog', { timeout: 30_000 }, () => {
  it('refuses an empty name and a bad quota without calling the server', async () => {
    const calls = fakeServer({ 'GET /api/user_group_map': groups });
    show();
    fireEvent.click(screen.getByTestId('token-submit'));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'bot' } });
    fireEvent.click(screen.getByLabelText('Unlimited quota'));
    fireEvent.change(screen.getByLabelText('Quota'), { target: { value: '-5' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    expect(await screen.findByText('Quota must be a whole number ≥ 0')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('checks the heartbeat range and the IP whitelist, then creates the token', async () => {
    const calls = fakeServer({ 'GET /api/user_group_map': groups, 'POST /api/token/': null });
    const onSaved = show();
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: ' bot ' } });
    fireEvent.click(screen.getByLabelText('Heartbeat'));
    fireEvent.change(screen.getByLabelText('Heartbeat timeout (seconds)'), { target: { value: '95' } });
    fireEvent.click(screen.getByLabelText('IP whitelist'));
    fireEvent.change(screen.getByLabelText('Allowed IPs'), { target: { value: '10.0.0.1\nlocalhost' } });
    fireEvent.change(screen.getByLabelText('Requests per minute (RPM)'), { target: { value: '2.5' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    expect(await screen.findByText('Enter a whole number ≥ 0')).toBeTruthy();
    expect(await screen.findByText('The timeout must be between 30 and 90 seconds')).toBeTruthy();
    expect(screen.getByText('Each line must be an IP address or CIDR range')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Heartbeat timeout (seconds)'), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText('Allowed IPs'), { target: { value: '10.0.0.1\n\n192.168.0.0/16' } });
    fireEvent.change(screen.getByLabelText('Requests per minute (RPM)'), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('Daily spending cap (quota)'), { target: { value: '500000' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/token/');
    expect(post.body).toMatchObject({
      name: 'bot',
      expired_time: -1,
      unlimited_quota: true,
      setting: { heartbeat: { enabled: true, timeout_seconds: 60 }, limits: {
          limits_ip_setting: { enabled: true, whitelist: ['10.0.0.1', '192.168.0.0/16'] },
          request_limits: { rpm: 30, tpm: 0, max_inflight: 0, daily_quota: 500000, monthly_quota: 0 },
        },
      },
    });
    expect(toasts).toContain('Token created, copy it from the list!');
  });

  it('checks the MCP tool patterns and sends them as mcp_tools', async () => {
    const calls = fakeServer({ 'GET /api/user_group_map': groups, 'POST /api/token/': null });
    const onSaved = show();
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'agent' } });
    fireEvent.change(screen.getByTestId('token-mcp-tools').querySelector('input')!, { target: { value: 'github' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    expect(await screen.findByText('Use comma-separated server/tool patterns, e.g. github/*,search/web_search')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    fireEvent.change(screen.getByTestId('token-mcp-tools').querySelector('input')!, { target: { value: 'github/*, search/web_search' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ name: 'agent', mcp_tools: 'github/*,search/web_search' });
  });

  it("hands a new token's key to the page, which shows it once with a copy button", async () => {
    fakeServer({ 'GET /api/user_group_map': groups, 'POST /api/token/': { key: 'abc123' } });
    const onCreated = vi.fn();
    const onSaved = show({ onCreated });
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'new' } });
    fireEvent.click(screen.getByTestId('token-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(onCreated).toHaveBeenCalledWith('abc123');
    expect(toasts).not.toContain('Token created, copy it from the list!');
    cleanup();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const onClose = vi.fn();
    render(<NewKeyDialog tokenKey="abc123" onClose={onClose} />);
    expect(screen.getByTestId('new-key').textContent).toBe('sk-abc123');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('sk-abc123'));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('loads the token to edit and shows the server refusal', async () => {
    const token = { id: 9, user_id: 1, key: 'k', status: 1, name: 'old', created_time: 1, accessed_time: 0, expired_time: -1, remain_quota: 0, unlimited_quota: true, used_quota: 0, group: '', backup_group: '', setting: { heartbeat: { enabled: false, timeout_seconds: 0 }, limits: { limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: false, whitelist: [] } } } };
    const calls = fakeServer({ 'GET /api/user_group_map': groups, 'GET /api/token/9': token, 'PUT /api/token/': new Error('group vip is not available') });
    const onSaved = show({ id: 9 });
    expect(((await screen.findByDisplayValue('old')) as HTMLInputElement).value).toBe('old');
    fireEvent.click(screen.getByTestId('token-submit'));
    await waitFor(() => expect(toasts.some((t) => t.includes('group vip is not available'))).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ id: 9, name: 'old' });
    expect(onSaved).not.toHaveBeenCalled();
  });
});
