import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { renderWithProviders } from '../../../test-utils/providers';
import { setSiteInfo, siteInfoFrom } from '../../../store/site-info';
import { Sidebar } from './Sidebar';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common']);
});
afterEach(cleanup);

describe('sidebar version chip', { timeout: 30_000 }, () => {
  it('shows a placeholder until the status loads, then the version (or "Unknown version" if none)', () => {
    const { store } = renderWithProviders(<Sidebar />);
    expect(screen.queryByText('Unknown version')).toBeNull();
    expect(screen.getByTestId('version-chip-loading')).toBeTruthy();
    act(() => void store.dispatch(setSiteInfo(siteInfoFrom({ version: 'v1.2.3' }))));
    expect(screen.getByTestId('version-chip').textContent).toBe('v1.2.3');
    act(() => void store.dispatch(setSiteInfo(siteInfoFrom({ version: '' }))));
    expect(screen.getByTestId('version-chip').textContent).toBe('Unknown version');
  });
});
