import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { User } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import QuotaDialog from './QuotaDialog';
import UserDialog from './UserDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'user']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});
const writes = () => api!.calls.filter((c) => c.method !== 'GET');
const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
// quota_per_unit defaults to 500000: $2 of balance
const alice = { id: 9, username: 'alice', display_name: 'Al', group: 'vip', quota: 1_000_000, used_quota: 0, request_count: 0, role: 1, status: 1 } as User;

describe('quota dialog', { timeout: 20_000 }, () => {
  it('refuses 0 without sending (quirk 14.2) and a deduction past the balance', async () => {
    api = fakeApi();
    renderWithProviders(<QuotaDialog user={alice} onClose={() => undefined} onSaved={() => undefined} />);
    expect(screen.getByText(/at most \$2\.00/)).toBeTruthy();
    type(/Amount/, '0');
    fireEvent.click(screen.getByTestId('quota-submit'));
    expect(await screen.findByText('Cannot be 0')).toBeTruthy();
    type(/Amount/, '-2.5');
    fireEvent.click(screen.getByTestId('quota-submit'));
    expect(await screen.findByText('Cannot deduct more than the balance')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('sends dollars as quota points and shows the conversion', async () => {
    api = fakeApi();
    const saved = vi.fn();
    renderWithProviders(<QuotaDialog user={alice} onClose={() => undefined} onSaved={saved} />);
    type(/Amount/, '-1.5');
    expect(screen.getByText('= -750000 quota points')).toBeTruthy();
    type(/Remark/, ' refund ');
    await act(async () => fireEvent.click(screen.getByTestId('quota-submit')));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(writes()).toEqual([{ method: 'POST', url: '/api/user/quota/9', body: { quota: -750000, remark: 'refund' } }]);
  });

  it('shows a server refusal once, inline, not again as a toast', async () => {
    api = fakeApi((method) => {
      if (method === 'POST') throw new Error('user is locked');
      return null;
    });
    renderWithProviders(<QuotaDialog user={alice} onClose={() => undefined} onSaved={() => undefined} />);
    type(/Amount/, '1');
    await act(async () => fireEvent.click(screen.getByTestId('quota-submit')));
    expect(await screen.findByText(/user is locked/)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByText(/user is locked/)).toHaveLength(1);
  });
});

describe('user dialog', { timeout: 20_000 }, () => {
  it('needs a username and a password of 8+ characters to create, and hides the group', async () => {
    api = fakeApi();
    renderWithProviders(<UserDialog open onClose={() => undefined} onSaved={() => undefined} />);
    expect(screen.queryByLabelText(/Group/)).toBeNull();
    type(/Password/, 'short');
    fireEvent.click(screen.getByTestId('user-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(screen.getByText('Too short')).toBeTruthy();
    expect(writes()).toEqual([]);
    type(/Username/, 'bob');
    type(/Password/, 'password123');
    await act(async () => fireEvent.click(screen.getByTestId('user-submit')));
    await waitFor(() => expect(writes()).toEqual([{ method: 'POST', url: '/api/user/', body: { username: 'bob', display_name: '', password: 'password123' } }]));
  });

  it('edits with the group and a blank password, showing the server refusal', async () => {
    api = fakeApi((method, url) => {
      if (url.startsWith('/api/group/')) return ['default', 'vip'];
      if (method === 'GET') return alice;
      throw new Error('用户名已存在');
    });
    renderWithProviders(<UserDialog open id={9} onClose={() => undefined} onSaved={() => undefined} />);
    await waitFor(() => expect((screen.getByLabelText(/Username/) as HTMLInputElement).value).toBe('alice'));
    expect(screen.getByText('vip')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('user-submit')));
    expect((await screen.findAllByText(/用户名已存在/)).length).toBeGreaterThan(0);
    expect(writes()[0]).toEqual({ method: 'PUT', url: '/api/user/', body: { id: 9, username: 'alice', display_name: 'Al', password: '', group: 'vip' } });
  });
});
