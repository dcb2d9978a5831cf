import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import LoginPage from './LoginPage';
import RegisterPage from './RegisterPage';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'auth']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

describe('sign-in errors', { timeout: 30_000 }, () => {
  it('shows a refused sign-in once, as the toast for its class, not also inline', async () => {
    api = fakeApi((_m, url) => {
      if (url.includes('/api/user/login')) throw new Error('Wrong username or password');
      return null;
    });
    renderWithProviders(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('alert');
    expect(screen.getAllByText(/Wrong username or password/)).toHaveLength(1);
  });

  const fillRegister = () => {
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  };

  it('shows a refused sign-up once, as a toast (console-spec §8), not also inline', async () => {
    api = fakeApi((_m, url) => {
      if (url.includes('/api/user/register')) throw new Error('Registration is closed');
      return null;
    });
    renderWithProviders(<RegisterPage />);
    fillRegister();
    const toast = await screen.findByText(/Registration is closed/);
    expect(toast.closest('form')).toBeNull();
    expect(screen.getAllByText(/Registration is closed/)).toHaveLength(1);
    expect(document.querySelector('form .MuiAlert-root')).toBeNull();
  });

  it('puts a refused sign-up field at its field, with no toast and nothing above the button', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      new Response(JSON.stringify({ success: false, code: 'username_taken', message: '用户名已存在！', fields: [{ path: 'username', code: 'username_taken', message: '用户名已存在！' }] }), { headers: { 'content-type': 'application/json' } }),
    );
    try {
      renderWithProviders(<RegisterPage />);
      fillRegister();
      const input = screen.getByLabelText('Username');
      await vi.waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
      const helper = document.getElementById(input.getAttribute('aria-describedby') ?? '');
      expect(helper?.textContent).toMatch(/\S/);
      expect(helper?.textContent).not.toMatch(/[\u4e00-\u9fff]/);
      expect(document.querySelector('.notistack-Snackbar, form .MuiAlert-root')).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });
});
