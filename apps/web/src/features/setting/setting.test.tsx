import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import { OptionFields } from './OptionFields';
import { ChatLinksEditor } from './ChatLinksEditor';
import { SwitchGrid } from './OptionSwitch';
import { useLockoutConfirm } from './LockoutDialog';
import type { FieldSpec } from './option-draft';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'setting']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const puts = () => api!.calls.filter((c) => c.method === 'PUT').map((c) => c.body);
const GENERAL: FieldSpec[] = [{ key: 'QuotaPerUnit', input: 'number', min: 0 }, { key: 'RetryTimes', input: 'number', min: 0 }, { key: 'SMTPToken' }];

describe('settings sections', { timeout: 20_000 }, () => {
  it('refuses a negative number in place and sends nothing', async () => {
    api = fakeApi();
    renderWithProviders(<OptionFields fields={GENERAL} options={{ QuotaPerUnit: '500000', RetryTimes: '0' }} />);
    fireEvent.change(screen.getByLabelText('Quota per US dollar'), { target: { value: '-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Must be at least 0.000001')).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('sends only the changed key; a blank secret stays unchanged', async () => {
    api = fakeApi();
    renderWithProviders(<OptionFields fields={GENERAL} options={{ QuotaPerUnit: '500000', RetryTimes: '0' }} />);
    fireEvent.change(screen.getByLabelText('Retries on failure'), { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' })));
    await waitFor(() => expect(puts()).toEqual([{ key: 'RetryTimes', value: '3' }]));
  });

  it('shows the server message when a save is refused', async () => {
    api = fakeApi((method) => {
      if (method === 'PUT') throw new Error('RetryTimes must be an integer');
      return null;
    });
    renderWithProviders(<OptionFields fields={GENERAL} options={{ QuotaPerUnit: '500000', RetryTimes: '0' }} />);
    fireEvent.change(screen.getByLabelText('Retries on failure'), { target: { value: '4' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' })));
    expect(await screen.findByText(/RetryTimes must be an integer/)).toBeTruthy();
  });

  it('saves an Enabled switch at once as the inverse of the stored value', async () => {
    api = fakeApi();
    renderWithProviders(<SwitchGrid names={['LogConsumeEnabled']} options={{ LogConsumeEnabled: 'true' }} />);
    await act(async () => fireEvent.click(screen.getByRole('switch', { name: 'Record quota consumption logs' })));
    await waitFor(() => expect(puts()).toEqual([{ key: 'LogConsumeEnabled', value: 'false' }]));
  });

  it('asks before turning password login off and sends nothing when cancelled', async () => {
    api = fakeApi();
    function Login() {
      const lockout = useLockoutConfirm();
      return (
        <>
          <SwitchGrid names={['PasswordLoginEnabled']} options={{ PasswordLoginEnabled: 'true' }} confirmOff={{ PasswordLoginEnabled: lockout.ask }} />
          {lockout.dialog}
        </>
      );
    }
    renderWithProviders(<Login />);
    fireEvent.click(screen.getByRole('switch', { name: 'Allow sign-in with a password' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('locked out');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' })));
    expect(puts()).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('switch', { name: 'Allow sign-in with a password' }));
    await act(async () => fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Turn it off' })));
    await waitFor(() => expect(puts()).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]));
  });
});

describe('chat-link grid', { timeout: 20_000 }, () => {
  it('lists the links in the order the token menus offer them (highest sort first)', () => {
    const links = [
      { name: 'Low', url: 'https://l/{key}', show: true, sort: 1 },
      { name: 'High', url: 'https://h/{key}', show: true, sort: 5 },
    ];
    renderWithProviders(<ChatLinksEditor options={{ ChatLinks: JSON.stringify(links) }} />);
    expect(screen.getAllByTestId('chat-link-row').map((r) => (r.textContent?.includes('High') ? 'High' : 'Low'))).toEqual(['High', 'Low']);
  });

  it('validates a row with the shared rule and saves the links as JSON', async () => {
    api = fakeApi();
    renderWithProviders(<ChatLinksEditor options={{ ChatLinks: JSON.stringify([{ name: 'A', url: 'https://a/{key}', show: true, sort: 1 }]) }} />);
    expect(screen.getAllByTestId('chat-link-row')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add link' }));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Save chat links' }) as HTMLButtonElement).disabled).toBe(true);
    const row = screen.getAllByTestId('chat-link-row')[1];
    fireEvent.change(within(row).getByLabelText('Name'), { target: { value: 'B' } });
    fireEvent.change(within(row).getByLabelText('Link'), { target: { value: 'https://b/{key}' } });
    fireEvent.change(within(row).getByLabelText('Order'), { target: { value: '-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Must be at least 0')).toBeTruthy();
    fireEvent.change(within(row).getByLabelText('Order'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save chat links' })));
    await waitFor(() => expect(puts()).toHaveLength(1));
    const sent = puts()[0] as { key: string; value: string };
    expect(sent.key).toBe('ChatLinks');
    expect(JSON.parse(sent.value)).toEqual([
      { name: 'A', url: 'https://a/{key}', show: true, sort: 1 },
      { name: 'B', url: 'https://b/{key}', show: true, sort: 2 },
    ]);
  });
});
