import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import type { User } from '@one-hub/contract';
import i18n from '../lib/i18n';
import { login } from '../store/account';
import { renderWithProviders } from '../test-utils/providers';
import { Guard } from './guards';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common']);
});
afterEach(cleanup);

describe('root screens', () => {
  it('refuse administrators and open for root', () => {
    const { store } = renderWithProviders(
      <Guard access="root">
        <p>server log</p>
      </Guard>,
    );
    act(() => {
      store.dispatch(login({ id: 2, username: 'admin', role: 10 } as User));
    });
    expect(screen.getByTestId('forbidden')).toBeTruthy();
    expect(screen.queryByText('server log')).toBeNull();
    act(() => {
      store.dispatch(login({ id: 1, username: 'root', role: 100 } as User));
    });
    expect(screen.getByText('server log')).toBeTruthy();
  });
});
