import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import i18n from '../../../lib/i18n';
import { makeStore } from '../../../store';
import EmailBindDialog from './EmailBindDialog';
import GeneralTab from './GeneralTab';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'profile']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
});

function fakeServer() {
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify({ success: true, message: '', data: null }), { status: 200 });
  });
  return calls;
}

const user = { id: 3, username: 'ann', display_name: 'Ann', email: '', group: 'default', access_token: '' } as never;

describe('profile dialogs', { timeout: 30_000 }, () => {
  it('the personal info form refuses short or mismatched passwords before calling the server', async () => {
    const calls = fakeServer();
    const saved = vi.fn();
    render(
      <Provider store={makeStore()}>
        <GeneralTab user={user} onSaved={saved} />
      </Provider>,
    );
    fireEvent.change(screen.getByTestId('new-password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByTestId('new-password2'), { target: { value: 'short' } });
    fireEvent.click(screen.getByTestId('profile-submit'));
    await waitFor(() => expect(toasts.join()).toContain('at least 8 characters'));
    fireEvent.change(screen.getByTestId('new-password'), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByTestId('profile-submit'));
    await waitFor(() => expect(toasts.join()).toContain('The two passwords differ'));
    expect(calls).toEqual([]);

    fireEvent.change(screen.getByTestId('new-password2'), { target: { value: 'long-enough-1' } });
    fireEvent.change(screen.getByTestId('original-password'), { target: { value: 'the-old-one' } });
    fireEvent.change(screen.getByTestId('display-name'), { target: { value: '  Annie  ' } });
    fireEvent.click(screen.getByTestId('profile-submit'));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(calls).toEqual([{ url: '/api/user/self', method: 'PUT', body: expect.objectContaining({ id: 3, display_name: 'Annie', password: 'long-enough-1', original_password: 'the-old-one' }) }]);
  });

  it('the e-mail dialog wants a valid address and a code before binding', async () => {
    const calls = fakeServer();
    const bound = vi.fn();
    render(
      <Provider store={makeStore()}>
        <EmailBindDialog open onClose={() => undefined} onBound={bound} />
      </Provider>,
    );
    fireEvent.change(screen.getByTestId('bind-email'), { target: { value: 'not-mail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
    await waitFor(() => expect(toasts.join()).toContain('Enter a valid e-mail address'));
    fireEvent.change(screen.getByTestId('bind-email'), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByTestId('bind-email-submit'));
    await waitFor(() => expect(toasts.join()).toContain('Enter the verification code'));
    expect(calls).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Get code' }));
    await screen.findByRole('button', { name: /Resend in 30 s/ });
    fireEvent.change(screen.getByTestId('bind-code'), { target: { value: ' abc123 ' } });
    fireEvent.click(screen.getByTestId('bind-email-submit'));
    await waitFor(() => expect(bound).toHaveBeenCalled());
    expect(calls.map((c) => c.url)).toEqual(['/api/verification?email=ann%40example.com', '/api/oauth/email/bind?email=ann%40example.com&code=abc123']);
  });
});
