import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../../lib/i18n';
import { makeStore } from '../../store';
import ChannelPage from './ChannelPage';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'channel']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
});

const base = { type: 1, key: '', status: 1, weight: 1, created_time: 1, test_time: 0, response_time: 0, base_url: '', other: '', balance: 0, balance_updated_time: 0, models: 'gpt-4o,gpt-4o-mini', group: 'default', used_quota: 0, model_mapping: '', model_headers: '', custom_parameter: '', priority: 0, proxy: '', test_model: 'gpt-4o', only_chat: false, pre_cost: 1, compatible_response: false, allow_extra_body: false, plugin: null };
const plain = { ...base, id: 1, name: 'solo', tag: '' };
const tagged = { ...base, id: 3, name: 'team_2', tag: 'team' };
const members = [{ ...base, id: 2, name: 'team', tag: 'team' }, tagged];

type Call = { url: string; method: string; body?: Record<string, unknown> };
function fakeServer() {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const path = url.split('?')[0];
    let data: unknown = [];
    if (method === 'GET' && path === '/api/channel/') data = { data: [plain, tagged], page: 1, size: 10, total_count: 2 };
    else if (path === '/api/channel_tag/team/list') data = members;
    else if (path === '/api/channel/models') return new Response(JSON.stringify({ object: 'list', data: [] }));
    else if (method === 'DELETE') data = 1;
    return new Response(JSON.stringify({ success: true, message: '', data }));
  });
  return calls;
}

function show(route = '/panel/channel') {
  render(
    <Provider store={makeStore()}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[route]}>
          <ChannelPage />
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
}

describe('channel page', { timeout: 40_000 }, () => {
  it('opens filtered to the name the quick search jumped to (?q=)', async () => {
    const calls = fakeServer();
    show('/panel/channel?q=solo');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/channel/?') && c.url.includes('name=solo'))).toBe(true));
  });

  it('sends the filters only on Search, with All left out', async () => {
    const calls = fakeServer();
    show();
    await screen.findByText('solo');
    fireEvent.change(screen.getByTestId('filter-name'), { target: { value: '  solo ' } });
    fireEvent.change(screen.getByTestId('filter-models'), { target: { value: 'gpt' } });
    const lists = () => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/channel/?'));
    expect(lists()).toHaveLength(1);
    expect(lists()[0].url).toBe('/api/channel/?page=1&size=10&order=-id&filter_tag=0');
    fireEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(lists()[1].url).toBe('/api/channel/?page=1&size=10&order=-id&name=solo&models=gpt&filter_tag=0');
  });

  it('shows a tag as one row whose sub-table batch-deletes the chosen channels', async () => {
    const calls = fakeServer();
    show();
    const tagRow = (await screen.findByText('team')).closest('[data-testid="table-row"]') as HTMLElement;
    expect(within(tagRow).getByText('Tag')).toBeTruthy();
    expect(within(tagRow).getByRole('button', { name: 'Enable all in tag' })).toBeTruthy();
    fireEvent.click(within(tagRow).getByRole('button', { name: 'Expand' }));
    const sub = await screen.findByTestId('tag-sub-table');
    await within(sub).findByText('3 - team_2');
    fireEvent.click(within(sub).getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(within(sub).getByRole('button', { name: 'Batch delete (2)' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/channel/batch')).toBeTruthy());
    expect(calls.find((c) => c.url === '/api/channel/batch')).toMatchObject({ method: 'DELETE', body: { value: 'batch_delete', ids: [2, 3] } });
    expect(toasts).toContain('Deleted 2 channels');
  });

  it('sets a tag priority through the tag route and refuses a negative one', async () => {
    const calls = fakeServer();
    show();
    const tagRow = (await screen.findByText('team')).closest('[data-testid="table-row"]') as HTMLElement;
    const field = within(tagRow).getByRole('spinbutton', { name: 'Priority' });
    fireEvent.change(field, { target: { value: '-1' } });
    fireEvent.click(within(tagRow).getByRole('button', { name: 'Save Priority' }));
    expect(within(tagRow).getByText('Priority must be at least 0')).toBeTruthy(); // at the field, not a toast
    fireEvent.change(field, { target: { value: '7' } });
    fireEvent.click(within(tagRow).getByRole('button', { name: 'Save Priority' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/channel_tag/team/priority')).toMatchObject({ method: 'PUT', body: { type: 'priority', value: 7 } }));
  });
});
