import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import GroupLimitsDialog from './GroupLimitsDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'user-group']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const group = { id: 3, symbol: 'vip', name: 'VIP', ratio: 1, api_rate: 600, public: true, promotion: false, min: 0, max: 0, enable: true };
const stored = { 'gpt-4o': { rpm: 10, tpm: 0, max_inflight: 0, daily_quota: 0, monthly_quota: 0 } };

describe('group model limits dialog', { timeout: 20_000 }, () => {
  it('shows the stored limits, refuses a blank model or a bad number, and saves every model', async () => {
    api = fakeApi((method) => (method === 'GET' ? stored : null));
    const closed = vi.fn();
    renderWithProviders(<GroupLimitsDialog group={group} onClose={closed} />);
    expect(((await screen.findByDisplayValue('gpt-4o')) as HTMLInputElement).value).toBe('gpt-4o');
    expect(screen.getByDisplayValue('10')).toBeTruthy();
    fireEvent.click(screen.getByTestId('group-limits-add'));
    const submit = screen.getByTestId('group-limits-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true); // the new row has no model yet
    fireEvent.change(screen.getAllByLabelText('Model')[1], { target: { value: 'claude-x' } });
    fireEvent.change(screen.getAllByLabelText('Tokens per minute (TPM)')[1], { target: { value: '-3' } });
    expect(await screen.findByText('Enter a whole number ≥ 0')).toBeTruthy();
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getAllByLabelText('Tokens per minute (TPM)')[1], { target: { value: '5000' } });
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/limits/group/3',
      body: { 'gpt-4o': stored['gpt-4o'], 'claude-x': { rpm: 0, tpm: 5000, max_inflight: 0, daily_quota: 0, monthly_quota: 0 } },
    });
  });
});
