import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { PriceEntry } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import PriceDialog, { type PriceDialogMode } from './PriceDialog';

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
});

const prices: PriceEntry[] = [
  { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1.25, output: 5, locked: false },
  { model: 'claude', type: 'tokens', channel_type: 14, input: 1.5, output: 7.5, locked: true },
];
const owners = [
  { id: 1, name: 'OpenAI' },
  { id: 14, name: 'Anthropic' },
];

function show(mode: PriceDialogMode) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify({ success: true, message: '' }));
  });
  const onSaved = vi.fn();
  render(<PriceDialog mode={mode} prices={prices} unpriced={['new-model']} owners={owners} onClose={() => undefined} onSaved={onSaved} />);
  return { calls, onSaved };
}

describe('price dialog', { timeout: 30_000 }, () => {
  it('requires a model that has no price yet and a non-negative input', async () => {
    const { calls } = show({ kind: 'single' });
    fireEvent.click(screen.getByTestId('price-submit'));
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Model' }), { target: { value: 'gpt-4o' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Input' }), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    expect(await screen.findByText('This model already has a price')).toBeTruthy();
    expect(screen.getByText('Must be a number ≥ 0')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('converts a USD per 1M entry to the stored rate and creates the price', async () => {
    const { calls, onSaved } = show({ kind: 'single' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Model' }), { target: { value: 'new-model' } });
    fireEvent.click(screen.getByRole('button', { name: 'USD' }));
    fireEvent.click(screen.getByRole('button', { name: 'M' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Input' }), { target: { value: '2.5' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Output' }), { target: { value: '10' } });
    expect(screen.getByText('rate 1.25')).toBeTruthy();
    fireEvent.click(screen.getByTestId('price-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls[0]).toEqual({ url: '/api/prices/single', method: 'POST', body: { model: 'new-model', type: 'tokens', channel_type: 1, input: 1.25, output: 5, locked: false, extra_ratios: null, tiers: null, service_ratios: null } });
  });

  it('edits an existing price under its own (URL-encoded) name, keeping the lock', async () => {
    const { calls, onSaved } = show({ kind: 'single', price: { ...prices[1], model: 'org/claude' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Output' }), { target: { value: '9' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls[0]).toMatchObject({ url: '/api/prices/single/org%2Fclaude', method: 'PUT', body: { model: 'org/claude', output: 9, locked: true, channel_type: 14 } });
  });

  it('edits a tier\'s own cache ratios, checks them, and sends them with the tier', async () => {
    const tiered: PriceEntry = { model: 'long', type: 'tokens', channel_type: 1, input: 1, output: 2, locked: false, extra_ratios: { cached_tokens: 0.5 }, tiers: [{ above: 200000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.25 } }] };
    const { calls, onSaved } = show({ kind: 'single', price: tiered });
    const tier = within(screen.getByTestId('price-tier-row'));
    expect(tier.getByRole('combobox', { name: 'Kind' }).textContent).toBe('Cached');
    const ratio = () => tier.getAllByRole('spinbutton', { name: 'Ratio' });
    expect((ratio()[0] as HTMLInputElement).value).toBe('0.25');
    fireEvent.change(ratio()[0], { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    expect(await screen.findByText(/prices and ratios numbers ≥ 0/)).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(ratio()[0], { target: { value: '0.1' } });
    fireEvent.click(tier.getByRole('button', { name: 'Tier ratio' }));
    expect(tier.getAllByRole('combobox', { name: 'Kind' })[1].textContent).toBe('Cache write');
    fireEvent.change(ratio()[1], { target: { value: '1.5' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls[0].body).toMatchObject({
      extra_ratios: { cached_tokens: 0.5 },
      tiers: [{ above: 200000, input: 2, output: 3, extra_ratios: { cached_tokens: 0.1, cached_write_tokens: 1.5 } }],
    });
  });

  it('edits the service multipliers (tier and fast mode) and sends them', async () => {
    const { calls, onSaved } = show({ kind: 'single', price: { model: 'claude-fast', type: 'tokens', channel_type: 14, input: 1, output: 5, locked: false, service_ratios: { priority: 1.5 } } });
    const service = within(screen.getByTestId('service-ratios'));
    expect(service.getByRole('combobox', { name: 'Kind' }).textContent).toBe('Priority / fast tier');
    fireEvent.click(service.getByRole('button', { name: 'Add multiplier' }));
    expect(service.getAllByRole('combobox', { name: 'Kind' })[1].textContent).toBe('Flex tier');
    fireEvent.change(service.getAllByRole('spinbutton', { name: 'Ratio' })[1], { target: { value: '101' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    expect(await screen.findByText('Each class once, a multiplier from 0 to 100')).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(service.getAllByRole('spinbutton', { name: 'Ratio' })[1], { target: { value: '0.5' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls[0].body).toMatchObject({ service_ratios: { priority: 1.5, flex: 0.5 } });
  });
});
