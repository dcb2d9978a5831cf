import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import { setSiteInfo, siteInfoFrom } from '../../store/site-info';
import { UpdateCheck } from './UpdateCheck';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'setting']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

describe('check update', { timeout: 30_000 }, () => {
  it('offers no button without a release feed, and asks the server (not GitHub) when there is one', async () => {
    api = fakeApi(() => ({ tag_name: 'v2.0.0', body: 'Notes', html_url: 'http://127.0.0.1/r' }));
    const { store } = renderWithProviders(<UpdateCheck />);
    act(() => void store.dispatch(setSiteInfo(siteInfoFrom({ version: 'v1.0.0' }))));
    expect(screen.queryByTestId('check-update')).toBeNull();
    act(() => void store.dispatch(setSiteInfo(siteInfoFrom({ version: 'v1.0.0', release_feed: true }))));
    fireEvent.click(screen.getByTestId('check-update'));
    expect(await screen.findByText('New version: v2.0.0')).toBeTruthy();
    expect(api.calls.map((c) => c.url)).toEqual([expect.stringContaining('/api/option/release/latest')]);
  });
});
