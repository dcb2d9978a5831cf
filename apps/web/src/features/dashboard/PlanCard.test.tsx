import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { formatTimestamp } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import PlanCard from './components/PlanCard';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'dashboard']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const sub = { id: 4, user_id: 2, plan_id: 7, plan_name: 'Pro', start_at: 1_800_000_000, end_at: 1_802_592_000, status: 'active', source: 'order', window_kind: '5h', window_quota: 1_000_000, window_start: 1_800_000_000, window_end: 1_800_018_000, window_used: 250_000, groups: [], models: [] };

describe('dashboard plan card', { timeout: 30_000 }, () => {
  it('shows each running plan with its window spend and reset time', async () => {
    api = fakeApi(() => ({ fallback: false, subscriptions: [sub, { ...sub, id: 5, plan_id: 8, plan_name: 'Next', status: 'pending', window_used: 0 }] }));
    renderWithProviders(<PlanCard />);
    const first = await screen.findByTestId('plan-usage-7');
    expect(first.textContent).toContain('Pro');
    expect(first.textContent).toContain('$0.50 of $2.00 used (this 5-hour window)');
    expect(first.textContent).toContain(`Resets ${formatTimestamp(sub.window_end)}`);
    expect(screen.getByTestId('plan-usage-8').textContent).toContain('Queued');
    expect(api.calls[0].url).toContain('/api/plan/self');
  });

  it('renders nothing for a user without a plan, unless asked to', async () => {
    api = fakeApi(() => ({ fallback: false, subscriptions: [] }));
    const { container } = renderWithProviders(<PlanCard />);
    await waitFor(() => expect(api!.calls).toHaveLength(1));
    expect(container.querySelector('[data-testid="plan-card"]')).toBeNull();
    cleanup();
    renderWithProviders(<PlanCard showEmpty />);
    expect(await screen.findByText('No running plan')).toBeTruthy();
  });
});
