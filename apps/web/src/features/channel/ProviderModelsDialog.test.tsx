import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import ProviderModelsDialog from './ProviderModelsDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'channel']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('provider model selector', { timeout: 30_000 }, () => {
  it('asks the provider with the form values, then adds the checked models with a generated mapping', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, message: '', data: ['openai/gpt-4o', 'openai/o3', 'misc/embed'] }));
    });
    const onApply = vi.fn();
    const request = { id: 4, type: 20, key: 'k', base_url: '', other: '', proxy: '' };
    render(<ProviderModelsDialog open request={request} mappingText={'{"old":"x"}'} onClose={() => undefined} onApply={onApply} />);
    await screen.findByLabelText('openai/o3');
    expect(sent).toEqual([request]);
    fireEvent.click(screen.getByLabelText('misc/embed'));
    fireEvent.click(screen.getByLabelText('Add to model mapping'));
    fireEvent.click(screen.getByLabelText('Keep the last path segment'));
    expect(JSON.parse(screen.getByTestId('mapping-preview').textContent!)).toEqual({ old: 'x', 'gpt-4o': 'openai/gpt-4o', o3: 'openai/o3' });
    fireEvent.click(screen.getByRole('button', { name: 'Add 2 models' }));
    await waitFor(() => expect(onApply).toHaveBeenCalledWith(['gpt-4o', 'o3'], false, { old: 'x', 'gpt-4o': 'openai/gpt-4o', o3: 'openai/o3' }));
  });

  it('lists an OpenAI-compatible address of the admin\'s choice in OpenAI mode, grouped by maker', async () => {
    const sent: Record<string, unknown>[] = [];
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, message: '', data: sent.length === 1 ? [] : ['claude-3', 'gpt-4o'] }));
    });
    render(<ProviderModelsDialog open request={{ id: 4, type: 14, key: 'k', base_url: '', other: '', proxy: '' }} mappingText="" onClose={() => undefined} onApply={() => undefined} />);
    await screen.findByText('The provider returned no models');
    fireEvent.click(screen.getByLabelText('OpenAI mode (custom address)'));
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: ' https://relay.example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fetch again' }));
    await screen.findByLabelText('Anthropic (1)');
    expect(sent[1]).toEqual({ type: 1, key: 'k', base_url: 'https://relay.example', other: '', proxy: '' });
    expect(screen.getByLabelText('OpenAI (1)')).toBeTruthy();
  });

  it('shows the provider failure', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ success: false, message: 'invalid api key' })));
    render(<ProviderModelsDialog open request={{ type: 1, key: '', base_url: '', other: '', proxy: '' }} mappingText="" onClose={() => undefined} onApply={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toContain('invalid api key');
  });
});
