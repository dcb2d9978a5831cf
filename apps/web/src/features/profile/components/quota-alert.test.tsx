import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../../test-utils/providers';
import QuotaAlertTab from './QuotaAlertTab';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'profile']);
});
let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const user = { id: 3, username: 'ann', email: 'ann@example.com', telegram_id: 0 } as never;

describe('balance alert tab', { timeout: 30_000 }, () => {
  it('shows the saved threshold in dollars and saves it back in quota units', async () => {
    const api = fakeApi((method) => (method === 'GET' ? { threshold: 500_000, channel: 'email' } : null));
    restore = api.restore;
    renderWithProviders(<QuotaAlertTab user={user} />);
    const threshold = (await screen.findByTestId('alert-threshold')) as HTMLInputElement;
    expect(threshold.value).toBe('1');
    fireEvent.change(threshold, { target: { value: '2.5' } });
    fireEvent.click(screen.getByTestId('alert-submit'));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ threshold: 1_250_000, channel: 'email' }));
  });

  it('offers Telegram only once it is bound, and refuses a negative threshold without calling the server', async () => {
    const api = fakeApi(() => ({ threshold: 0, channel: '' }));
    restore = api.restore;
    renderWithProviders(<QuotaAlertTab user={user} />);
    fireEvent.mouseDown(within(await screen.findByTestId('alert-channel').then((el) => el.parentElement!)).getByRole('combobox'));
    expect((await screen.findByText('Telegram (send /bind to the bot first)')).closest('li')?.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('E-mail (ann@example.com)').closest('li')?.getAttribute('aria-disabled')).toBeNull();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    fireEvent.change(screen.getByTestId('alert-threshold'), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('alert-submit'));
    await new Promise((r) => setTimeout(r, 100));
    expect(api.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });
});
