import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import GatewayTab from './GatewayTab';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'payment']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});
const page = <T,>(data: T[]) => ({ data, page: 1, size: 10, total_count: data.length });

describe('payment tables', { timeout: 30_000 }, () => {
  it('shows the percent fee as a percent and a fallback for a broken gateway icon', async () => {
    const gateway = { id: 1, type: 'epay', uuid: 'u-1234567890', name: 'Pay', icon: 'http://127.0.0.1:9/broken.png', notify_domain: '', fixed_fee: 0, percent_fee: 0.03, currency: 'CNY', config: '{}', sort: 0, enable: true, created_at: 1_800_000_000 };
    api = fakeApi(() => page([gateway]));
    const { container } = renderWithProviders(<GatewayTab />);
    expect(await screen.findByText('3%')).toBeTruthy();
    expect(screen.queryByText('0.03')).toBeNull();
    fireEvent.error(container.querySelector('img[src$="broken.png"]')!);
    expect(screen.getByTestId('gateway-icon-fallback')).toBeTruthy();
  });
});
