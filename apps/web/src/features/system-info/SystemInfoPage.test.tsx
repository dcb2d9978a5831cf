import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SystemLogEntry } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import SystemInfoPage from './SystemInfoPage';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'system-info']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const at = (s: number) => `2026-01-01T10:00:${String(s).padStart(2, '0')}.000Z`;
const lines = () => screen.queryAllByTestId('log-line').map((l) => l.textContent);
const posts = () => api!.calls.filter((c) => c.url === '/api/system_info/log');

describe('system log viewer', { timeout: 20_000 }, () => {
  it('asks for the last 50 lines and lists them newest first with their level', async () => {
    api = fakeApi(() => [{ Timestamp: at(1), Level: 'info', Message: 'server started' }, { Timestamp: at(2), Level: 'error', Message: 'flush failed: disk full' }]);
    renderWithProviders(<SystemInfoPage />);
    await waitFor(() => expect(lines()).toHaveLength(2));
    expect(posts()[0]).toMatchObject({ method: 'POST', body: { count: 50 } });
    expect(lines()[0]).toMatch(/ERROR.*flush failed: disk full/);
    expect(lines()[1]).toMatch(/INFO.*server started/);
    expect(screen.getByTestId('log-summary').textContent).toMatch(/^Showing 2 of 2 lines · updated \d\d:\d\d:\d\d$/);
  });

  it('searches, clears what is shown and asks for the chosen number of lines', async () => {
    let log: SystemLogEntry[] = [{ Timestamp: at(1), Level: 'info', Message: 'relay ok' }, { Timestamp: at(2), Level: 'warn', Message: 'Channel 3 slow' }];
    api = fakeApi(() => log);
    renderWithProviders(<SystemInfoPage />);
    await waitFor(() => expect(lines()).toHaveLength(2));
    fireEvent.change(screen.getByTestId('log-search'), { target: { value: 'channel' } });
    expect(lines()).toEqual([expect.stringContaining('Channel 3 slow')]);
    fireEvent.change(screen.getByTestId('log-search'), { target: { value: 'nothing like it' } });
    expect(screen.getByTestId('log-empty').textContent).toBe('No line matches the search');
    fireEvent.change(screen.getByTestId('log-search'), { target: { value: '' } });

    fireEvent.click(screen.getByTestId('log-clear'));
    expect(screen.getByTestId('log-empty').textContent).toBe('No log lines');
    log = [...log, { Timestamp: at(3), Level: 'info', Message: 'after the clear' }];
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Refresh' })));
    await waitFor(() => expect(lines()).toEqual([expect.stringContaining('after the clear')]));

    const max = screen.getByTestId('log-max');
    fireEvent.change(max, { target: { value: '9999' } });
    await act(async () => fireEvent.blur(max));
    expect((max as HTMLInputElement).value).toBe('500');
    await waitFor(() => expect(posts().at(-1)!.body).toEqual({ count: 500 }));
  });

  it('refreshes on its own every chosen interval once switched on', async () => {
    api = fakeApi(() => [{ Timestamp: at(1), Level: 'info', Message: 'tick' }]);
    renderWithProviders(<SystemInfoPage />);
    await waitFor(() => expect(lines()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 1500));
    expect(posts()).toHaveLength(1);
    expect(screen.getByRole('combobox', { name: 'Interval' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('switch', { name: 'Auto refresh' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Interval' }));
    fireEvent.click(await screen.findByRole('option', { name: '1 s' }));
    await waitFor(() => expect(posts().length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
  });

  it('shows a refusal with a retry', async () => {
    let fail = true;
    api = fakeApi(() => {
      if (fail) throw new Error('无权进行此操作，权限不足');
      return [{ Timestamp: at(1), Level: 'info', Message: 'back again' }];
    });
    renderWithProviders(<SystemInfoPage />);
    expect((await screen.findByTestId('log-error')).textContent).toContain('无权进行此操作，权限不足');
    fail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await waitFor(() => expect(lines()).toEqual([expect.stringContaining('back again')]));
  });
});
