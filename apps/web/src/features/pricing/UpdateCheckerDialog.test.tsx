import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PriceSyncDiff } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import UpdateCheckerDialog from './UpdateCheckerDialog';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'pricing']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
  localStorage.clear();
});

const diff: PriceSyncDiff = {
  url: 'https://prices.example/prices.json',
  mode: 'update',
  fetched: 3,
  added: [{ model: 'fresh', type: 'tokens', channel_type: 1, input: 1, output: 2 }],
  changed: [{ model: 'gpt-4o', before: { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1.25, output: 5 }, after: { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1.5, output: 5, tiers: [{ above: 200000, input: 3, output: 10 }] } }],
  removed: [{ model: 'old-model', type: 'times', channel_type: 1, input: 1, output: 1 }],
  digest: 'a'.repeat(64),
};

describe('price sync dialog', { timeout: 30_000 }, () => {
  it('previews the server diff for the chosen mode, then applies exactly the previewed diff', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith('/api/prices/updateService')) return new Response(JSON.stringify({ success: true, data: 'https://prices.example/prices.json' }));
      return new Response(JSON.stringify({ success: true, data: diff }));
    });
    const onDone = vi.fn();
    render(<UpdateCheckerDialog open onClose={() => undefined} onDone={onDone} />);
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Price data URL' }) as HTMLInputElement).value).toBe('https://prices.example/prices.json'));
    expect((screen.getByTestId('price-sync-apply') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    fireEvent.click(screen.getByTestId('price-sync-preview'));
    const shown = await screen.findByTestId('price-sync-diff');
    expect(shown.textContent).toContain('+ fresh');
    expect(shown.textContent).toContain('gpt-4o: input 1.25 → 1.5; tiers - → >200,000: 3/10');
    expect(shown.textContent).toContain('− old-model');
    expect(shown.textContent).toContain('1 removed');
    expect(calls.at(-1)).toEqual({ url: '/api/prices/sync/preview', body: { updateMode: 'update', url: 'https://prices.example/prices.json' } });
    fireEvent.click(screen.getByTestId('price-sync-apply'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.at(-1)).toEqual({ url: '/api/prices/sync/apply', body: diff });
    expect(toasts).toContain('Prices synced: 1 added, 1 changed, 1 removed');
  });
});
