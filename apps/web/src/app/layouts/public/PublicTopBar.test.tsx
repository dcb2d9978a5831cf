import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { SITE_INFO_DEFAULTS, setSiteInfo } from '../../../store/site-info';
import { fakeApi, renderWithProviders } from '../../../test-utils/providers';
import { PublicTopBar, statusPageUrl } from './PublicTopBar';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

describe('public top bar status link', { timeout: 20_000 }, () => {
  it('points at the Uptime Kuma status page only when uptime is enabled', () => {
    expect(statusPageUrl({ UptimeEnabled: true, UptimeDomain: 'https://status.example.com/', UptimePageName: 'main hub' })).toBe('https://status.example.com/status/main%20hub');
    expect(statusPageUrl({ UptimeEnabled: true, UptimeDomain: 'https://status.example.com' })).toBe('https://status.example.com');
    expect(statusPageUrl({ UptimeEnabled: false, UptimeDomain: 'https://status.example.com', UptimePageName: 'main' })).toBeNull();
    expect(statusPageUrl({ UptimeEnabled: true, UptimeDomain: '' })).toBeNull();
  });

  it('lists Status in the menu as a new-tab link, and leaves it out without uptime', async () => {
    api = fakeApi(() => []);
    const { store } = renderWithProviders(<PublicTopBar />);
    fireEvent.click(screen.getByTestId('public-menu'));
    expect(screen.queryByRole('menuitem', { name: 'Status' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    act(() => {
      store.dispatch(setSiteInfo({ ...SITE_INFO_DEFAULTS, UptimeEnabled: true, UptimeDomain: 'https://status.example.com', UptimePageName: 'main' }));
    });
    fireEvent.click(screen.getByTestId('public-menu'));
    const link = await screen.findByRole('menuitem', { name: 'Status' });
    expect(link.getAttribute('href')).toBe('https://status.example.com/status/main');
    expect(link.getAttribute('target')).toBe('_blank');
  });
});
