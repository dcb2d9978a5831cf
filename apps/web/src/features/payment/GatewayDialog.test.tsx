import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import GatewayDialog from './GatewayDialog';
import { readConfig, writeConfig, orderStatusColor } from './payment-data';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'payment']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  vi.restoreAllMocks();
});

const sent = (method: string) => api!.calls.filter((c) => c.method === method);
const field = (label: RegExp) => screen.getByLabelText(label);
const choose = async (label: RegExp, option: string) => {
  fireEvent.mouseDown(within(screen.getByTestId('gateway-dialog')).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
};

// Selects and many fields: slow on a loaded machine.
describe('payment gateway dialog', { timeout: 20_000 }, () => {
  it('requires name and icon, refuses negative or over-100% fees, and sends nothing until right', async () => {
    api = fakeApi();
    renderWithProviders(<GatewayDialog open onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.change(field(/Percent fee/), { target: { value: '1.5' } });
    fireEvent.change(field(/Fixed fee/), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('gateway-submit'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByText('Must be at most 1')).toBeTruthy();
    expect(screen.getByText('Must be at least 0')).toBeTruthy();
    fireEvent.change(field(/^Name/), { target: { value: 'Epay' } });
    expect(screen.getAllByText('This field is required')).toHaveLength(1); // a fixed field loses its error at once
    expect(sent('POST')).toEqual([]);
  });

  it('creates an Epay gateway with its credentials as a JSON string', async () => {
    api = fakeApi();
    const saved = vi.fn();
    renderWithProviders(<GatewayDialog open onClose={() => undefined} onSaved={saved} />);
    fireEvent.change(field(/^Name/), { target: { value: 'Epay' } });
    fireEvent.change(field(/^Icon/), { target: { value: 'https://x/i.png' } });
    fireEvent.change(field(/Percent fee/), { target: { value: '0.05' } });
    fireEvent.change(field(/Pay domain/), { target: { value: 'https://pay.example' } });
    fireEvent.change(field(/Merchant ID/), { target: { value: '1001' } });
    fireEvent.change(field(/Merchant key/), { target: { value: 'k' } });
    await choose(/Pay type/, 'WeChat Pay');
    await act(async () => fireEvent.click(screen.getByTestId('gateway-submit')));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    const body = sent('POST')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'epay', name: 'Epay', icon: 'https://x/i.png', currency: 'CNY', fixed_fee: 0, percent_fee: 0.05, notify_domain: '' });
    expect(JSON.parse(body.config as string)).toEqual({ pay_domain: 'https://pay.example', partner_id: '1001', key: 'k', pay_type: 'wxpay' });
    expect(body).not.toHaveProperty('sort');
  });

  it('switches the credential fields with the type and edits with PUT, showing server refusals', async () => {
    api = fakeApi((method, url) => {
      if (method === 'GET' && url.includes('/api/payment/4'))
        return { id: 4, type: 'stripe', uuid: 'u', name: 'Stripe', icon: 'i', notify_domain: '', fixed_fee: 0.3, percent_fee: 0, currency: 'USD', config: '{"secret_key":"********","webhook_secret":"********"}', sort: 1, enable: true, created_at: 1 };
      if (method === 'PUT') throw new Error('currency: currency must be CNY or USD');
      return null;
    });
    renderWithProviders(<GatewayDialog open id={4} onClose={() => undefined} onSaved={() => undefined} />);
    // Secrets arrive as the placeholder; sent back unchanged, the server keeps the stored value.
    await waitFor(() => expect((field(/Secret key/) as HTMLInputElement).value).toBe('********'));
    expect(screen.getByText('Stored; leave it unchanged or blank to keep it')).toBeTruthy();
    expect((field(/Webhook secret/) as HTMLInputElement).readOnly).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('gateway-submit')));
    expect((await screen.findAllByText(/currency must be CNY or USD/)).length).toBeGreaterThan(0);
    expect(sent('PUT')[0].body).toMatchObject({ id: 4, type: 'stripe', fixed_fee: 0.3, config: '{"secret_key":"********","webhook_secret":"********"}' });
    await choose(/^Type/, 'Alipay');
    expect(screen.queryByLabelText(/Secret key/)).toBeNull();
    expect(field(/Alipay public key/)).toBeTruthy();
    await choose(/^Type/, 'WeChat Pay');
    expect(field(/WeChat Pay public key ID/)).toBeTruthy();
    expect((field(/^WeChat Pay public key$/) as HTMLTextAreaElement).tagName).toBe('TEXTAREA');
  });
});

describe('payment data', () => {
  it('reads config text leniently and writes only the keys of the type', () => {
    expect(readConfig('{"key":"k","n":3}')).toEqual({ key: 'k', n: '3' });
    expect(readConfig('nope')).toEqual({});
    expect(readConfig('[1]')).toEqual({});
    expect(JSON.parse(writeConfig('alipay', { app_id: 'a', key: 'stray' }))).toEqual({ app_id: 'a', private_key: '', public_key: '', pay_type: 'facepay' });
  });
  it('colours order statuses as the spec says', () => {
    expect(['pending', 'success', 'failed', 'closed', 'weird'].map(orderStatusColor)).toEqual(['primary', 'success', 'error', 'default', 'secondary']);
  });
});
