import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { SERVER_TEXT_NS } from '../../lib/server-text';
import { renderWithProviders } from '../../test-utils/providers';
import { setUserGroupMap } from '../../store/account';
import GeneralTab from './components/GeneralTab';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'profile', SERVER_TEXT_NS]);
});
afterEach(cleanup);

describe('profile general tab', { timeout: 30_000 }, () => {
  it('names the seeded default group in the reader\'s language, not as stored ("默认分组")', () => {
    const user = { id: 3, username: 'ann', display_name: 'Ann', email: '', group: 'default', access_token: '' } as never;
    const { store } = renderWithProviders(<GeneralTab user={user} onSaved={() => undefined} />);
    act(() => void store.dispatch(setUserGroupMap({ default: { name: '默认分组', ratio: 1, api_rate: 600 } as never })));
    expect(screen.getByText(/^Group: Default group/)).toBeTruthy();
    expect(screen.queryByText(/默认分组/)).toBeNull();
  });
});
