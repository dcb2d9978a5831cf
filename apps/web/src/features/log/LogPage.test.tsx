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

/** A desktop narrower than 1536 px: no media query of the theme matches. */
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
    expect(box('Detail').checked).toBe(true);
    fireEvent.click(menu.getByText('Group'));
    expect(headers()).toContain('Group');
    expect(box('Group').checked).toBe(true);
    expect(JSON.parse(localStorage.getItem('log_hidden_columns')!)).toEqual(['source_ip']);
  });
});
