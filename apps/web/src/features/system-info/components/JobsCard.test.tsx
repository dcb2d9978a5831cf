import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { JobStatus, JobsInfo } from '@one-hub/contract';
import i18n from '../../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../../test-utils/providers';
import { JobsCard } from './JobsCard';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'system-info']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const job = (over: Partial<JobStatus>): JobStatus => ({
  name: 'channel_test', configured: true, enabled: true, schedule: 'every 30 min', running: false,
  last_run_at: 0, last_duration_ms: 0, last_outcome: null, last_message: '', next_run_at: 0, ...over,
});

describe('scheduled jobs card', () => {
  it('lists each job with its schedule, last outcome and message, and switches or runs one', async () => {
    const info: JobsInfo = {
      node_type: 'master',
      jobs: [
        job({ last_run_at: 1_767_261_600, last_duration_ms: 42, last_outcome: 'ok', last_message: 'tested 3, failed 1, disabled 1, re-enabled 0' }),
        job({ name: 'price_sync', schedule: 'every 24 h', last_run_at: 1_767_261_600, last_outcome: 'error', last_message: 'price service answered HTTP 503' }),
        job({ name: 'monthly_bills', configured: false, schedule: 'off', enabled: false }),
      ],
    };
    api = fakeApi((method, url) => (method === 'GET' && url === '/api/system_info/jobs' ? info : null));
    renderWithProviders(<JobsCard />);
    const test = await screen.findByTestId('job-channel_test');
    expect(test.textContent).toContain('Channel test');
    expect(test.textContent).toContain('every 30 min');
    expect(test.textContent).toContain('Succeeded');
    expect(test.textContent).toContain('took 42 ms');
    expect(within(test).getByTestId('job-message').textContent).toBe('tested 3, failed 1, disabled 1, re-enabled 0');
    const prices = screen.getByTestId('job-price_sync');
    expect(prices.textContent).toContain('Failed');
    expect(prices.textContent).toContain('price service answered HTTP 503');
    const bills = screen.getByTestId('job-monthly_bills');
    expect(bills.textContent).toContain('Off in the configuration');
    expect(bills.textContent).toContain('Not run yet');

    await act(async () => fireEvent.click(within(test).getByRole('switch', { name: 'Switch the job on or off' })));
    await waitFor(() => expect(api!.calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/system_info/jobs/channel_test', body: { enabled: false } }));
    await act(async () => fireEvent.click(within(prices).getByRole('button', { name: 'Run now' })));
    await waitFor(() => expect(api!.calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/system_info/jobs/price_sync/run' }));
  });

  it('says jobs run on the master only when shown on a slave, and when there are none', async () => {
    let node = 'slave';
    api = fakeApi(() => ({ node_type: node, jobs: [] }));
    renderWithProviders(<JobsCard />);
    await waitFor(() => expect(screen.getByTestId('jobs-card').textContent).toContain('Scheduled jobs run on the master node only.'));
    cleanup();
    node = 'master';
    renderWithProviders(<JobsCard />);
    await waitFor(() => expect(screen.getByTestId('jobs-card').textContent).toContain('No scheduled jobs'));
  });
});
