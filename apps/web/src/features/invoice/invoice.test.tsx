import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { InvoiceLine, InvoiceMonth, User } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { login } from '../../store/account';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import InvoicePage from './InvoicePage';
import InvoiceDetailPage from './InvoiceDetailPage';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'invoice']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  localStorage.clear();
});

const month = (date: string, quota: number): InvoiceMonth => ({ date, request_count: 1200, quota, prompt_tokens: 34567, completion_tokens: 890, request_time: 200_000 });
const line = (model_name: string, quota: number): InvoiceLine => ({ ...month('2024-01-01', quota), model_name });

function renderScreens(route: string) {
  const result = renderWithProviders(
    <Routes>
      <Route path="/panel/invoice" element={<InvoicePage />} />
      <Route path="/panel/invoice/detail/:date" element={<InvoiceDetailPage />} />
    </Routes>,
    { route },
  );
  result.store.dispatch(login({ id: 7, username: 'alice', display_name: 'Alice Liddell', email: 'alice@example.com', group: 'vip', role: 1 } as User));
  return result;
}

describe('monthly bills screens', { timeout: 20_000 }, () => {
  it('lists months newest first with the amount, tokens and time, and opens a month', async () => {
    api = fakeApi((_m, url) => {
      if (url.startsWith('/api/user/invoice?')) return { page: 1, size: 10, total_count: 2, data: [month('2024-02-01', 2_500_000), month('2024-01-01', 1_250_000)] };
      if (url.startsWith('/api/user/invoice/detail')) return [line('gpt-4o', 1_000_000), line('claude', 250_000)];
      throw new Error(`unexpected ${url}`);
    });
    renderScreens('/panel/invoice');
    const feb = (await screen.findByText('2024-02')).closest('tr')!;
    expect(within(feb).getByText('$5.0000')).toBeTruthy();
    expect(within(feb).getByText('Input 34,567')).toBeTruthy();
    expect(within(feb).getByText('Output 890')).toBeTruthy();
    expect(within(feb).getByText('1,200')).toBeTruthy();
    expect(within(feb).getByText('3 m 20 s')).toBeTruthy();
    expect(new URL(api.calls[0].url, 'http://x').searchParams.get('order')).toBe('-date');

    fireEvent.click(screen.getByTestId('invoice-view-2024-01'));
    expect(await screen.findByText('Bill for 2024-01')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('invoice-total-amount').textContent).toContain('$2.5000'));
    expect(screen.getByTestId('invoice-total-requests').textContent).toContain('2,400');
    expect(screen.getByTestId('invoice-total-time').textContent).toContain('6 m 40 s');
    expect(screen.getByTestId('invoice-user').textContent).toBe('Alice Liddell');
    expect(screen.getByText('Group: vip')).toBeTruthy();
    const gpt = screen.getByText('gpt-4o').closest('tr')!;
    expect(within(gpt).getByText('$2.0000')).toBeTruthy();
    expect(within(gpt).getByText('80.0%')).toBeTruthy();
    expect(api.calls.at(-1)!.url).toBe('/api/user/invoice/detail?date=2024-01-01');
  });

  it('words the request time in the reader\'s language', async () => {
    await i18n.changeLanguage('ja_JP');
    await i18n.loadNamespaces(['invoice']);
    try {
      api = fakeApi(() => ({ page: 1, size: 10, total_count: 1, data: [month('2024-02-01', 10)] }));
      renderScreens('/panel/invoice');
      expect(await screen.findByText('3 分 20 秒')).toBeTruthy();
      expect(screen.getByText('入力 34,567')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en_US');
    }
  });

  it('says so when there are no bills or the month had no usage', async () => {
    api = fakeApi((_m, url) => (url.startsWith('/api/user/invoice?') ? { page: 1, size: 10, total_count: 0, data: [] } : []));
    renderScreens('/panel/invoice');
    expect(await screen.findByText('No monthly bills yet')).toBeTruthy();
    cleanup();
    renderScreens('/panel/invoice/detail/2024-03-01');
    expect(await screen.findByText('No usage in this month')).toBeTruthy();
    expect(screen.getByTestId('invoice-total-amount').textContent).toContain('$0.0000');
  });

  it('sends an invalid month back to the list without asking for it', async () => {
    api = fakeApi((_m, url) => (url.startsWith('/api/user/invoice?') ? { page: 1, size: 10, total_count: 1, data: [month('2024-01-01', 10)] } : []));
    renderScreens('/panel/invoice/detail/2024-01-15');
    expect(await screen.findByTestId('invoice-page')).toBeTruthy();
    expect(api.calls.some((c) => c.url.includes('/detail'))).toBe(false);
  });

  it('shows the server refusal with a retry', async () => {
    let fail = true;
    api = fakeApi(() => {
      if (fail) throw new Error('数据库繁忙');
      return [line('gpt-4o', 500_000)];
    });
    renderScreens('/panel/invoice/detail/2024-01-01');
    expect((await screen.findByTestId('table-error')).textContent).toContain('数据库繁忙');
    expect(screen.getByTestId('invoice-total-amount').textContent).toContain('—');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('gpt-4o')).toBeTruthy();
  });
});
