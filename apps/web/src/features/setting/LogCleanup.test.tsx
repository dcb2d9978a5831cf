import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { LogDeletion } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import { LogCleanup } from './LogCleanup';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'setting']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const job = (over: Partial<LogDeletion>): LogDeletion => ({
  id: 7, target_timestamp: 1_700_000_000, type: 2, deleted: 0, status: 'running', done: false, error: '', started_at: 1_700_000_100, finished_at: 0, ...over,
});

describe('log cleanup', { timeout: 20_000 }, () => {
  it('answers at once with the job and follows its progress to the end', async () => {
    let reads = 0;
    api = fakeApi((method, url) => {
      if (method === 'DELETE') return job({});
      if (url === '/api/log/deletion') return null;
      reads++;
      return reads === 1 ? job({ deleted: 1200 }) : job({ deleted: 5000, status: 'done', done: true, finished_at: 1_700_000_200 });
    });
    renderWithProviders(<LogCleanup />);
    await act(async () => fireEvent.click(screen.getByTestId('log-cleanup-start')));
    expect(api.calls.find((c) => c.method === 'DELETE')!.url).toMatch(/^\/api\/log\/\?target_timestamp=\d+&background=true$/);
    expect(await screen.findByText('Deletion #7 running: 0 logs deleted so far')).toBeTruthy();
    expect(await screen.findByText('Deletion #7 running: 1200 logs deleted so far', undefined, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('5000 logs cleared', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByTestId('log-cleanup-progress')).toBeNull();
  });

  it('after a reload reads the running job and shows how it failed', async () => {
    api = fakeApi((_method, url) => (url === '/api/log/deletion' ? job({ deleted: 300 }) : job({ deleted: 400, status: 'failed', done: true, error: 'disk full' })));
    renderWithProviders(<LogCleanup />);
    expect(await screen.findByText('Deletion #7 running: 300 logs deleted so far')).toBeTruthy();
    expect(screen.getByTestId('log-cleanup-start').hasAttribute('disabled')).toBe(true);
    expect(await screen.findByText('Deletion #7 stopped after 400 logs: disk full', undefined, { timeout: 5000 })).toBeTruthy();
  });
});
