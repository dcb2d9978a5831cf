import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../../lib/i18n';
import { makeStore } from '../../store';
import ChannelDialog, { type ChannelDialogMode } from './ChannelDialog';

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

type Call = { url: string; method: string; body?: Record<string, unknown> };
function fakeServer(answers: Record<string, unknown>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const key = `${method} ${url.split('?')[0]}`;
    if (key === 'GET /api/channel/models') return new Response(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o', owned_by: 'OpenAI' }] }));
    const data = key in answers ? answers[key] : [];
    if (data instanceof Error) return new Response(JSON.stringify({ success: false, message: data.message }));
    return new Response(JSON.stringify({ success: true, message: '', data }));
  });
  return calls;
}

function show(mode: ChannelDialogMode) {
  const onSaved = vi.fn();
  render(
    <Provider store={makeStore()}>
      <QueryClientProvider client={new QueryClient()}>
        <ChannelDialog mode={mode} onClose={() => undefined} onSaved={onSaved} />
      </QueryClientProvider>
    </Provider>,
  );
  return onSaved;
}

describe('channel dialog', { timeout: 30_000 }, () => {
  it('requires name and key on create, and says when a JSON editor does not parse', async () => {
    const calls = fakeServer({ 'GET /api/group/': ['default', 'vip'] });
    show({ kind: 'create' });
    fireEvent.click(screen.getByTestId('channel-submit'));
    await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(2));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Weight' }), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('channel-submit'));
    expect(await screen.findByText('Must be at least 1')).toBeTruthy(); // the real bound, at the field
    for (const b of screen.getAllByRole('button', { name: 'Edit as JSON' })) fireEvent.click(b);
    fireEvent.change(screen.getByRole('textbox', { name: 'Model mapping' }), { target: { value: '{"a":' } });
    expect(screen.getByText('Must be valid JSON')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Model mapping' }), { target: { value: '["a"]' } });
    expect(screen.getByText('Must be a JSON object')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Extra headers' }), { target: { value: '{"X-A": 1}' } });
    expect(screen.getByText('Every value must be a string')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('creates a custom channel only with a base URL, sending the mapped model in the list', async () => {
    const calls = fakeServer({ 'POST /api/channel/': 1 });
    const onSaved = show({ kind: 'create' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Custom' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'mine' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Key' }), { target: { value: 'sk-1' } });
    // the mapping as rows: one requested → upstream pair
    fireEvent.click(within(screen.getByTestId('kv-model_mapping').parentElement!).getByRole('button', { name: 'Add' }));
    fireEvent.change(within(screen.getByTestId('kv-model_mapping')).getByLabelText('Requested model'), { target: { value: 'alias' } });
    fireEvent.change(within(screen.getByTestId('kv-model_mapping')).getByLabelText('Upstream model'), { target: { value: 'gpt-4o' } });
    // the OpenAI defaults stay after the type change (only empty fields are filled): clear them first
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    fireEvent.change(screen.getByTestId('channel-models-input'), { target: { value: 'gpt-4o,gpt-4o-mini' } });
    fireEvent.keyDown(screen.getByTestId('channel-models-input'), { key: 'Enter' });
    fireEvent.click(screen.getByTestId('channel-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Base URL' }), { target: { value: 'http://upstream.local/' } });
    fireEvent.click(screen.getByTestId('channel-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ type: 8, name: 'mine', key: 'sk-1', base_url: 'http://upstream.local', models: 'gpt-4o,gpt-4o-mini,alias', group: 'default' });
    expect(toasts).toContain('Channel created');
  });

  it('edits a tag member without its shared fields and keeps the key when left empty', async () => {
    const stored = { id: 5, type: 1, name: 'member', key: '', tag: 'team', models: 'gpt-4o', group: 'default', base_url: '', other: '', priority: 2, weight: 3, test_model: 'gpt-4o', model_mapping: '', model_headers: '', custom_parameter: '', proxy: '', only_chat: false, pre_cost: 1, compatible_response: false, allow_extra_body: false };
    const calls = fakeServer({ 'GET /api/channel/5': stored, 'PUT /api/channel/': stored });
    const onSaved = show({ kind: 'edit', id: 5 });
    expect(await screen.findByDisplayValue('member')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Type' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByTestId('channel-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const body = calls.find((c) => c.method === 'PUT')!.body!;
    expect(body).toMatchObject({ id: 5, name: 'member', priority: 2, weight: 3, tag: 'team' });
    expect(Object.keys(body)).not.toContain('key');
    expect(Object.keys(body)).not.toContain('models');
  });

  it('never shows a stored key in the edit dialog: an empty field with a "set — leave empty to keep" placeholder', async () => {
    const stored = { id: 6, type: 1, name: 'keyed', key: 'sk-live-secret', tag: '', models: 'gpt-4o', group: 'default', base_url: '', other: '', priority: 0, weight: 1, test_model: 'gpt-4o', model_mapping: '', model_headers: '', custom_parameter: '', proxy: '', only_chat: false, pre_cost: 1, compatible_response: false, allow_extra_body: false };
    const calls = fakeServer({ 'GET /api/channel/6': stored, 'PUT /api/channel/': stored });
    const onSaved = show({ kind: 'edit', id: 6 });
    expect(await screen.findByDisplayValue('keyed')).toBeTruthy();
    const key = screen.getByTestId('channel-key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toBe('Set — leave empty to keep');
    expect(screen.queryByDisplayValue('sk-live-secret')).toBeNull();
    expect(document.body.textContent).not.toContain('sk-live-secret');
    fireEvent.click(screen.getByTestId('channel-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(Object.keys(calls.find((c) => c.method === 'PUT')!.body!)).not.toContain('key');
  });

  it('opens without the key and reveals it only on "Show key"', async () => {
    const stored = { id: 8, type: 1, name: 'masked', key: '', tag: '', models: 'gpt-4o', group: 'default', base_url: '', other: '', priority: 0, weight: 1, test_model: 'gpt-4o', model_mapping: '', model_headers: '', custom_parameter: '', proxy: '', only_chat: false, pre_cost: 1, compatible_response: false, allow_extra_body: false };
    const calls = fakeServer({ 'GET /api/channel/8': stored, 'POST /api/channel/8/key': { key: 'sk-revealed' } });
    show({ kind: 'edit', id: 8 });
    expect(await screen.findByDisplayValue('masked')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/key'))).toBe(false);
    fireEvent.click(screen.getByTestId('channel-key-reveal'));
    await waitFor(() => expect((screen.getByTestId('channel-key') as HTMLInputElement).value).toBe('sk-revealed'));
    expect(calls.filter((c) => c.url === '/api/channel/8/key').map((c) => c.method)).toEqual(['POST']);
    expect(screen.queryByTestId('channel-key-reveal')).toBeNull();
  });

  it('edits a tag as one channel: keys one per line, no name, saved through the tag route', async () => {
    const tag = { id: 2, type: 1, name: 'team', key: 'k1\nk2', tag: 'team', models: 'gpt-4o', group: 'default', base_url: '', other: '', priority: 0, weight: 1, test_model: 'gpt-4o', model_mapping: '', model_headers: '', custom_parameter: '', proxy: '', only_chat: false, pre_cost: 1, compatible_response: false, allow_extra_body: false, KeyMap: {} };
    const calls = fakeServer({ 'GET /api/channel_tag/my%20team': tag, 'PUT /api/channel_tag/my%20team': null });
    const onSaved = show({ kind: 'tag', tag: 'my team' });
    const key = (await screen.findByDisplayValue(/k1/)) as HTMLTextAreaElement;
    expect(key.tagName).toBe('TEXTAREA');
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Type' })).toBeNull();
    fireEvent.change(key, { target: { value: 'k1\n\nk3 ' } });
    fireEvent.click(screen.getByTestId('channel-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/channel_tag/my%20team');
    expect(put.body).toMatchObject({ key: 'k1\nk3', models: 'gpt-4o', tag: 'team' });
    expect(Object.keys(put.body!)).not.toContain('name');
  });
});
