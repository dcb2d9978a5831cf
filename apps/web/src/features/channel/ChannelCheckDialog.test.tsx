import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../lib/i18n';
import ChannelCheckDialog from './ChannelCheckDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'channel']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const channel = { id: 7, name: 'main', type: 1, models: 'gpt-4o,gpt-4*', base_url: '', other: '', proxy: '' } as never;
const event = (o: unknown) => `event: message\ndata: ${JSON.stringify(o)}\n\n`;
const report = (model: string, statuses: number[]) => ({ model, checks: ['basic', 'error', 'image', 'json_schema', 'tools'].map((name, i) => ({ name, status: statuses[i], remark: `${name} remark`, raw: `{"raw":"${name}"}` })) });

describe('channel check dialog', { timeout: 30_000 }, () => {
  it('fetches checkable provider models, streams the checks and shows each verdict', async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init?.body)) });
      if (url === '/api/channel/provider_models_list') return new Response(JSON.stringify({ success: true, message: '', data: ['gpt-4o', 'claude-3-5-haiku', 'dall-e-3'] }));
      const text = event({ type: 'heartbeat', data: 'ping' }) + event({ type: 'result', data: report('gpt-4o', [1, 1, 2, 1, 1]) }) + event({ type: 'result', data: report('claude-3-5-haiku', [1, 1, 1, 0, 1]) }) + event({ type: 'done', data: 'completed' });
      // two chunks, split inside an event, as a network would
      const stream = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(text.slice(0, 70)));
          c.enqueue(new TextEncoder().encode(text.slice(70)));
          c.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    render(<ChannelCheckDialog channel={channel} onClose={() => undefined} />);
    expect(screen.queryByLabelText('gpt-4*')).toBeNull(); // wildcards cannot be probed
    fireEvent.click(screen.getByRole('button', { name: 'Fetch available models' }));
    await screen.findByLabelText('claude-3-5-haiku');
    expect(screen.queryByLabelText('dall-e-3')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    fireEvent.click(screen.getByTestId('check-start'));
    await waitFor(() => expect(screen.getAllByTestId('check-report')).toHaveLength(2));
    expect(sent[1]).toEqual({ url: '/api/sse/channel/check', body: { id: 7, models: 'gpt-4o,claude-3-5-haiku' } });
    const [first, second] = screen.getAllByTestId('check-report');
    expect(within(first).getByText('Passed')).toBeTruthy();
    expect(within(first).getByText('unknown')).toBeTruthy();
    expect(within(second).getByText('Failed')).toBeTruthy();
    fireEvent.click(within(second).getAllByRole('button', { name: 'Show response' })[3]);
    expect(within(second).getByText('{"raw":"json_schema"}')).toBeTruthy();
  });

  it('shows a refusal that comes before the stream', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ success: false, message: 'channel not implemented' }), { status: 503, headers: { 'content-type': 'application/json' } }));
    render(<ChannelCheckDialog channel={channel} onClose={() => undefined} />);
    fireEvent.click(screen.getByLabelText('gpt-4o'));
    fireEvent.click(screen.getByTestId('check-start'));
    expect((await screen.findByRole('alert')).textContent).toContain('channel not implemented');
  });
});
