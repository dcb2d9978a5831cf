import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import LoginPage from './LoginPage';

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
});
