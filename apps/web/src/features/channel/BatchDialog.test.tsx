import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import BatchDialog from './BatchDialog';
import ChannelActions from './ChannelActions';

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

const ch = (id: number, models: string, other = '') => ({ id, name: `c${id}`, type: 3, models, other, key: 'k', tag: '', group: 'default' });
type Call = { url: string; method: string; body?: Record<string, unknown> };
function fakeServer(answer: (c: Call) => unknown) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const c = { url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(c);
    return new Response(JSON.stringify({ success: true, message: '', data: answer(c) }));
  });
  return calls;
}

describe('batch processing and row actions', { timeout: 30_000 }, () => {
  it('sets the Azure API version on the checked channels', async () => {
    const calls = fakeServer((c) => (c.method === 'GET' ? { data: [ch(1, 'gpt-4o', '2024-02-01'), ch(2, 'gpt-4o', '2024-02-01')], total_count: 2 } : 1));
    const onDone = vi.fn();
    render(<BatchDialog open onClose={() => undefined} onDone={onDone} />);
    fireEvent.change(screen.getByLabelText('Search by current API version'), { target: { value: '2024-02-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(await screen.findByLabelText('1 - c1 (2024-02-01)'));
    fireEvent.change(screen.getByLabelText('New API version'), { target: { value: '2024-10-21' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].url).toBe('/api/channel/?type=3&other=2024-02-01&page=1&size=100&filter_tag=1');
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ url: '/api/channel/batch/azure_api', method: 'PUT', body: { ids: [2], value: '2024-10-21' } });
    expect(toasts).toContain('Updated 1 channels');
  });

  it('removes a model only from channels that keep another one', async () => {
    const calls = fakeServer((c) => (c.method === 'GET' ? { data: [ch(1, 'gpt-4o'), ch(2, 'gpt-4o,o3'), ch(3, 'gpt-4o-mini,o3')], total_count: 3 } : 1));
    render(<BatchDialog open onClose={() => undefined} onDone={() => undefined} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Batch delete model' }));
    fireEvent.change(screen.getByLabelText('Full model name'), { target: { value: 'gpt-4o' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('1 channels found (100 at most)');
    expect(screen.getByLabelText('2 - c2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toEqual({ url: '/api/channel/batch/del_model', method: 'PUT', body: { ids: [2], value: 'gpt-4o' } }));
  });

  it('clones a channel without its id, statistics or nulls, named _copy', async () => {
    const full = { ...ch(5, 'gpt-4o'), used_quota: 9, response_time: 100, test_time: 5, balance: 1, balance_updated_time: 2, created_time: 3, model_mapping: null, weight: null, priority: 2 };
    // The detail has no key: the copy asks for it with the explicit (audited) reveal.
    const calls = fakeServer((c) => (c.url.endsWith('/key') ? { key: 'k' } : c.method === 'GET' ? { ...full, key: '' } : 6));
    const onChanged = vi.fn();
    render(<ChannelActions channel={full as never} onEdit={() => undefined} onChanged={onChanged} />);
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Copy channel' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/channel/5/key', 'GET /api/channel/5', 'POST /api/channel/']);
    expect(calls[2]).toEqual({ url: '/api/channel/', method: 'POST', body: { name: 'c5_copy', type: 3, models: 'gpt-4o', other: '', key: 'k', tag: '', group: 'default', priority: 2 } });
  });
});
