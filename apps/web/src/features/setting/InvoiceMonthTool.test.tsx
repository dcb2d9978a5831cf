import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import { InvoiceMonthTool, monthInput } from './InvoiceMonthTool';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'setting']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const posts = () => api!.calls.filter((c) => c.method === 'POST').map((c) => c.url);

describe('monthly bill tool', { timeout: 20_000 }, () => {
  it('names months in UTC across a year boundary', () => {
    expect(monthInput(new Date('2026-01-15T00:00:00Z'), -1)).toBe('2025-12');
    expect(monthInput(new Date('2026-03-31T23:00:00Z'))).toBe('2026-03');
  });

  it('generates and rebuilds the chosen past month from its first day', async () => {
    api = fakeApi();
    renderWithProviders(<InvoiceMonthTool />);
    const month = screen.getByTestId('invoice-month') as HTMLInputElement;
    expect(month.value).toBe(monthInput(new Date(), -1));
    fireEvent.change(month, { target: { value: '2024-01' } });
    await act(async () => fireEvent.click(screen.getByTestId('invoice-gen')));
    expect(await screen.findByText('Bills for 2024-01 generated')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('invoice-update')));
    expect(await screen.findByText('Bills for 2024-01 rebuilt')).toBeTruthy();
    expect(posts()).toEqual(['/api/option/invoice/gen/2024-01-01', '/api/option/invoice/update/2024-01-01']);
  });

  it('refuses the current month in place and shows a server refusal', async () => {
    api = fakeApi(() => {
      throw new Error('invoice the month data already generated');
    });
    renderWithProviders(<InvoiceMonthTool />);
    fireEvent.change(screen.getByTestId('invoice-month'), { target: { value: monthInput(new Date()) } });
    expect(screen.getByText('Pick a month that is over')).toBeTruthy();
    expect(screen.getByTestId('invoice-gen').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('invoice-update').hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByTestId('invoice-month'), { target: { value: '2024-05' } });
    await act(async () => fireEvent.click(screen.getByTestId('invoice-gen')));
    await waitFor(() => expect(screen.getByText(/invoice the month data already generated/)).toBeTruthy());
    expect(posts()).toEqual(['/api/option/invoice/gen/2024-05-01']);
  });
});
