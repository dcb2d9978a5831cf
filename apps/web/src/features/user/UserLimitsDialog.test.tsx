import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { User } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import UserLimitsDialog from './UserLimitsDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'user']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const user = { id: 7, username: 'erin' } as User;

describe('user limits dialog (the shared limits frame)', { timeout: 20_000 }, () => {
  it('loads the user\'s limits, refuses a bad number and saves the edited ones', async () => {
    api = fakeApi((method) => (method === 'GET' ? { rpm: 4, tpm: 0, max_inflight: 2, daily_quota: 0, monthly_quota: 0 } : null));
    const closed = vi.fn();
    renderWithProviders(<UserLimitsDialog user={user} onClose={closed} />);
    expect(await screen.findByDisplayValue('4')).toBeTruthy();
    const submit = screen.getByTestId('user-limits-submit') as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('Tokens per minute (TPM)'), { target: { value: 'x' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Tokens per minute (TPM)'), { target: { value: '9000' } });
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/limits/user/7', body: { rpm: 4, tpm: 9000, max_inflight: 2, daily_quota: 0, monthly_quota: 0 } });
  });
});
