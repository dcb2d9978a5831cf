import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../../test-utils/providers';
import PayDialog, { POLL_MS } from './PayDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'topup']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const order = { amount: 10, order_amount: 68.04, order_currency: 'CNY', fee: 0.45, discount: 7.56, quota: 5_000_000, status: 'pending' };
const statusCalls = () => api!.calls.filter((c) => c.url.includes('/api/user/order/status'));

describe('pay dialog', () => {
  it('shows the server message when no payment could be started, and does not poll', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api = fakeApi((method) => (method === 'POST' ? { trade_no: '1', type: 0, data: null, order } : null));
    renderWithProviders(<PayDialog order={{ uuid: 'u', amount: 10 }} onClose={() => undefined} />);
    expect(await screen.findByTestId('pay-not-started')).toBeTruthy();
    expect(screen.getByText('Order 1 · 68.04 CNY')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2));
    expect(statusCalls()).toEqual([]);
    expect(api.calls[0]).toMatchObject({ method: 'POST', body: { uuid: 'u', amount: 10 } });
  });

  it('draws the QR code, polls every 3 s and shows success once paid; only the close button closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let paid = false;
    api = fakeApi((method, url) => {
      if (method === 'POST') return { trade_no: '42', type: 2, data: { url: 'https://qr.alipay.com/abc', method: 'GET' }, order };
      if (url.includes('/order/status')) {
        if (!paid) throw new Error('pending');
        return { status: 'success' };
      }
      return null;
    });
    const closed = vi.fn();
    renderWithProviders(<PayDialog order={{ uuid: 'u', amount: 10 }} onClose={closed} />);
    expect((await screen.findByTestId('pay-qrcode')).getAttribute('data-value')).toBe('https://qr.alipay.com/abc');
    expect(screen.getByText('Open Alipay').closest('a')?.getAttribute('href')).toContain(encodeURIComponent('https://qr.alipay.com/abc'));
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    await waitFor(() => expect(statusCalls()).toHaveLength(1));
    expect(statusCalls()[0].url).toContain('trade_no=42');
    fireEvent.keyDown(screen.getByTestId('pay-dialog'), { key: 'Escape' });
    expect(closed).not.toHaveBeenCalled();
    paid = true;
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await screen.findByTestId('pay-succeeded')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pay-close'));
    expect(closed).toHaveBeenCalled();
  });

  it('submits a hidden form to a new tab for a redirect, with the method and params', async () => {
    const forms: Array<{ action: string; method: string; target: string; fields: Record<string, string> }> = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      const fields = Object.fromEntries([...this.querySelectorAll('input')].map((i) => [i.name, i.value]));
      forms.push({ action: this.action, method: this.method, target: this.target, fields });
    });
    const data = { url: 'https://pay.example/submit.php', method: 'POST', params: { pid: '1001', money: '68.04' } };
    api = fakeApi((method) => (method === 'POST' ? { trade_no: '7', type: 1, data, order } : null));
    renderWithProviders(<PayDialog order={{ uuid: 'u', amount: 10 }} onClose={() => undefined} />);
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0]).toEqual({ action: 'https://pay.example/submit.php', method: 'post', target: '_blank', fields: { pid: '1001', money: '68.04' } });
    fireEvent.click(await screen.findByTestId('pay-redirect-link'));
    expect(forms).toHaveLength(2);
  });

  it('shows a refusal from the server', async () => {
    api = fakeApi(() => {
      throw new Error('金额必须大于等于 5');
    });
    renderWithProviders(<PayDialog order={{ uuid: 'u', amount: 1 }} onClose={() => undefined} />);
    expect((await screen.findAllByText(/金额必须大于等于 5/)).length).toBeGreaterThan(0);
  });

  it('stops waiting when the order is closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api = fakeApi((method, url) => {
      if (method === 'POST') return { trade_no: '9', type: 2, data: { url: 'weixin://wxpay/x', method: 'GET' }, order };
      if (url.includes('/order/status')) throw new Error('closed');
      return null;
    });
    renderWithProviders(<PayDialog order={{ uuid: 'u', amount: 10 }} onClose={() => undefined} />);
    await screen.findByTestId('pay-qrcode');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await screen.findByText('This order was closed without a payment. Start a new top-up.')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2));
    expect(statusCalls()).toHaveLength(1);
  });
});
