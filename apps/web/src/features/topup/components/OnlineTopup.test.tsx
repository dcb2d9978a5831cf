import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { PublicGateway } from '@one-hub/contract';
import i18n from '../../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../../test-utils/providers';
import { setSiteInfo, siteInfoFrom } from '../../../store/site-info';
import OnlineTopup from './OnlineTopup';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'topup']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  vi.restoreAllMocks();
});

const gateways: PublicGateway[] = [
  { uuid: 'low', name: 'Stripe', icon: '', fixed_fee: 0.5, percent_fee: 0, currency: 'USD', sort: 1 },
  { uuid: 'high', name: 'Epay', icon: '', fixed_fee: 0, percent_fee: 0.05, currency: 'CNY', sort: 9 },
];
function setup() {
  api = fakeApi();
  const r = renderWithProviders(<OnlineTopup gateways={gateways} />);
  act(() => void r.store.dispatch(setSiteInfo(siteInfoFrom({ RechargeDiscount: '{"10":0.9,"100":0.8}', PaymentUSDRate: 7.2, PaymentMinAmount: 5 }))));
  return r;
}
const line = (id: string) => within(screen.getByTestId(id)).getAllByText(/./).map((e) => e.textContent);

describe('online top-up', () => {
  it('preselects the highest-sorted gateway and badges discounted presets', () => {
    setup();
    expect(screen.getByRole('button', { name: 'Epay' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(screen.getByTestId('preset-10').parentElement!).getByText('10% off')).toBeTruthy();
  });

  it('shows the summary the server will charge: discount, percent fee, CNY at the rate', () => {
    setup();
    fireEvent.click(screen.getByTestId('preset-10'));
    expect(line('sum-amount')).toEqual(['Top-up amount', '$10.00']);
    expect(line('sum-discounted')).toEqual(['Discounted price', '$9.00']);
    expect(line('sum-fee')).toEqual(['Fee (5%)', '$0.45']);
    expect(line('sum-pay')).toEqual(['Amount to pay (CNY, exchange rate 7.2)', 'CNY 68.04']);
    fireEvent.click(screen.getByRole('button', { name: 'Stripe' }));
    fireEvent.change(screen.getByTestId('topup-amount'), { target: { value: '20' } });
    expect(screen.queryByTestId('sum-discounted')).toBeNull();
    expect(line('sum-fee')).toEqual(['Fee (fixed)', '$0.50']);
    expect(line('sum-pay')).toEqual(['Amount to pay (USD)', '$20.50']);
  });

  it('refuses amounts below the minimum or not whole before any order is made', async () => {
    setup();
    fireEvent.change(screen.getByTestId('topup-amount'), { target: { value: '4' } });
    fireEvent.click(screen.getByTestId('topup-submit'));
    expect(await screen.findByText(/The amount cannot be less than 5/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('topup-amount'), { target: { value: '7.5' } });
    fireEvent.click(screen.getByTestId('topup-submit'));
    expect(await screen.findByText(/The amount must be a whole number/)).toBeTruthy();
    expect(api!.calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(screen.queryByTestId('pay-dialog')).toBeNull();
  });
});
