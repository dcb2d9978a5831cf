import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import UserGroupDialog from './UserGroupDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'user-group']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});
const writes = () => api!.calls.filter((c) => c.method !== 'GET');
const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('user group dialog', { timeout: 20_000 }, () => {
  it('requires an English symbol, a name and a ratio, and checks the upgrade range', async () => {
    api = fakeApi();
    renderWithProviders(<UserGroupDialog open onClose={() => undefined} onSaved={() => undefined} />);
    type(/Ratio/, '');
    fireEvent.click(screen.getByTestId('user-group-submit'));
    expect(await screen.findByText('Letters, digits, - and _ only')).toBeTruthy();
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    type(/Symbol/, 'vip');
    type(/^Name/, 'VIP');
    type(/Ratio/, '0.8');
    fireEvent.click(screen.getByRole('switch', { name: 'Auto-upgrade' }));
    type(/Min top-up/, '50');
    type(/Max top-up/, '10');
    fireEvent.click(screen.getByTestId('user-group-submit'));
    expect(await screen.findByText('Must be at least 50')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('creates the group with numbers and flags', async () => {
    api = fakeApi();
    const saved = vi.fn();
    renderWithProviders(<UserGroupDialog open onClose={() => undefined} onSaved={saved} />);
    type(/Symbol/, 'vip');
    type(/^Name/, 'VIP');
    type(/Ratio/, '0.8');
    type(/API rate/, '120');
    fireEvent.click(screen.getByRole('switch', { name: 'Public' }));
    await act(async () => fireEvent.click(screen.getByTestId('user-group-submit')));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(writes()[0]).toMatchObject({ method: 'POST', body: { symbol: 'vip', name: 'VIP', ratio: 0.8, api_rate: 120, public: true, promotion: false, min: 0, max: 0 } });
  });

  it('edits without sending the symbol and shows a refusal', async () => {
    api = fakeApi((method) => {
      if (method === 'GET') return { id: 7, symbol: 'vip', name: 'VIP', ratio: 1, api_rate: 300, public: false, promotion: false, min: 0, max: 0, enable: true };
      throw new Error('group name taken');
    });
    renderWithProviders(<UserGroupDialog open id={7} onClose={() => undefined} onSaved={() => undefined} />);
    await waitFor(() => expect((screen.getByLabelText(/Symbol/) as HTMLInputElement).value).toBe('vip'));
    expect((screen.getByLabelText(/Symbol/) as HTMLInputElement).disabled).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('user-group-submit')));
    expect((await screen.findAllByText(/group name taken/)).length).toBeGreaterThan(0);
    expect(writes()[0]).toMatchObject({ method: 'PUT', body: { id: 7, name: 'VIP' } });
    expect(writes()[0].body).not.toHaveProperty('symbol');
  });
});
