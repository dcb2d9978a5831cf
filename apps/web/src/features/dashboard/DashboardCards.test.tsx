import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import RpmCard from './components/RpmCard';
import StatCard from './components/StatCard';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'dashboard']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

describe('dashboard cards', { timeout: 30_000 }, () => {
  it('shows no figure or trend on a stat card whose data failed to load', () => {
    const data = { today: 0, trend: 0, series: [0, 0] };
    renderWithProviders(<StatCard testId="stat-cost" title="Cost" value="$0.000" data={data} days={['a', 'b']} colour="#000" loading={false} failed format={String} />);
    const card = screen.getByTestId('stat-cost');
    expect(card.textContent).not.toContain('$0.000');
    expect(card.textContent).not.toContain('%');
  });

  it('shows the tokens this minute against the TPM limit, and no gauge when the rate failed', async () => {
    api = fakeApi(() => ({ rpm: 2, maxRPM: 600, usageRpmRate: 0.33, tpm: 70, maxTPM: 1000, usageTpmRate: 7 }));
    renderWithProviders(<RpmCard />);
    expect((await screen.findByTestId('tpm-value')).textContent).toBe('70 of 1000 tokens this minute (TPM, 7%)');
    cleanup();
    api.restore();
    api = fakeApi(() => {
      throw new Error('down');
    });
    renderWithProviders(<RpmCard />);
    await screen.findByText('Could not load the data');
    expect(screen.getByTestId('rpm-card').textContent).not.toContain('Usage');
  });
});
