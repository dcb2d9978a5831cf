import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { User } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { login } from '../../store/account';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import LogPage from './LogPage';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'log']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** A desktop narrower than 1440 px (1366×768): no media query of the theme matches. */
const laptop = () => vi.stubGlobal('matchMedia', (q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
const headers = () => [...document.querySelectorAll('thead th')].map((h) => h.textContent);

describe('log column chooser', { timeout: 20_000 }, () => {
  it('tells the truth about the columns on screen and shows a hidden one when clicked', async () => {
    laptop();
    api = fakeApi(() => ({ data: [], total_count: 0 }));
    const { store } = renderWithProviders(<LogPage />);
    act(() => void store.dispatch(login({ id: 1, username: 'root', role: 100 } as User)));
    await screen.findByTestId('table-empty');
    expect(headers()).not.toContain('Group');
    expect(headers()).not.toContain('Source IP');
    fireEvent.click(screen.getByTestId('column-settings'));
    const menu = within(screen.getByRole('menu'));
    const box = (name: string) => menu.getByText(name).closest('li')!.querySelector('input') as HTMLInputElement;
    expect(box('Group').checked).toBe(false);
    expect(box('Detail').checked).toBe(false);
    expect(box('Quota').checked).toBe(true);
    fireEvent.click(menu.getByText('Group'));
    expect(headers()).toContain('Group');
    expect(box('Group').checked).toBe(true);
    // Below 1440 px the channel column folds into the expanded row as well.
    expect(JSON.parse(localStorage.getItem('log_hidden_columns')!)).toEqual(['channel_id', 'source_ip', 'detail']);
  });
});

describe('log count', { timeout: 20_000 }, () => {
  const row = { id: 7, key: '7', user_id: 1, created_at: 1_700_000_000, type: 3, content: 'manage', username: 'root', token_name: '', model_name: '', quota: 0, prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, channel_id: 0, request_time: 0, is_stream: false, source_ip: '', group: '', estimated: false, metadata: null, channel: null };

  it('shows "10,000+" without a last-page button when the server stopped counting', async () => {
    laptop();
    api = fakeApi(() => ({ data: Array.from({ length: 10 }, (_, i) => ({ ...row, id: i + 1, key: String(i + 1) })), page: 1, size: 10, total_count: 10_000, total_capped: true }));
    const { store } = renderWithProviders(<LogPage />);
    act(() => void store.dispatch(login({ id: 1, username: 'root', role: 100 } as User)));
    expect(await screen.findByText('1-10 of 10,000+')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /last page/i })).toBeNull();
  });

  it('shows an exact count as it is', async () => {
    laptop();
    api = fakeApi(() => ({ data: [row], page: 1, size: 10, total_count: 1, total_capped: false }));
    const { store } = renderWithProviders(<LogPage />);
    act(() => void store.dispatch(login({ id: 1, username: 'root', role: 100 } as User)));
    expect(await screen.findByText('1-1 of 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: /last page/i })).toBeTruthy();
  });
});

describe("a user's own log rows", { timeout: 20_000 }, () => {
  // As /api/log/self answers them: id 0 on every row (ids stay hidden), an opaque key each.
  const own = (key: string, content: string) => ({ id: 0, key, user_id: 2, created_at: 1_700_000_000, type: 3, content, username: 'u', token_name: '', model_name: '', quota: 0, prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, channel_id: 0, request_time: 0, is_stream: false, source_ip: '', group: '', estimated: false, metadata: null, channel: null, request_id: '' });

  it('opens only the row clicked', async () => {
    laptop();
    api = fakeApi(() => ({ data: [own('kA', 'first row'), own('kB', 'second row'), own('kC', 'third row')], page: 1, size: 10, total_count: 3, total_capped: false }));
    const { store } = renderWithProviders(<LogPage />);
    act(() => void store.dispatch(login({ id: 2, username: 'u', role: 1 } as User)));
    await screen.findByText('1-3 of 3');
    const rows = screen.getAllByTestId('table-row');
    expect(rows).toHaveLength(3);
    fireEvent.click(within(rows[1]).getByRole('button', { name: /expand/i }));
    expect(screen.getAllByRole('button', { name: /expand/i }).filter((b) => b.querySelector('[data-testid="KeyboardArrowUpIcon"]'))).toHaveLength(1);
    // Below 1536 px the detail is folded into the opened panel: only the opened row shows its text, once.
    expect(document.body.textContent!.split('second row').length - 1).toBe(1);
    expect(document.body.textContent!.split('first row').length - 1).toBe(0);
    expect(within(screen.getByTestId('folded-fields')).getByText('second row')).toBeTruthy();
  });
});
