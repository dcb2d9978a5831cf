import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import TelegramDialog from './TelegramDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'telegram']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  vi.restoreAllMocks();
});

const posts = () => api!.calls.filter((c) => c.method === 'POST');
const field = (label: RegExp) => screen.getByLabelText(label);

describe('telegram menu dialog', () => {
  it('requires command, description and reply, refuses a bad command, and sends nothing until all are right', async () => {
    api = fakeApi();
    renderWithProviders(<TelegramDialog open onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.click(screen.getByTestId('telegram-submit'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    fireEvent.change(field(/Command/), { target: { value: 'has space' } });
    fireEvent.change(field(/Description/), { target: { value: 'Help' } });
    fireEvent.change(field(/Reply content/), { target: { value: '*help*' } });
    fireEvent.click(screen.getByTestId('telegram-submit'));
    expect(await screen.findByText('Letters, digits, - and _ only')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('creates with MarkdownV2 by default, the command without / and in lower case, and toasts the server message', async () => {
    api = fakeApi();
    const saved = vi.fn();
    renderWithProviders(<TelegramDialog open onClose={() => undefined} onSaved={saved} />);
    fireEvent.change(field(/Command/), { target: { value: '/Help' } });
    fireEvent.change(field(/Description/), { target: { value: 'How to' } });
    fireEvent.change(field(/Reply content/), { target: { value: 'Send /balance' } });
    await act(async () => fireEvent.click(screen.getByTestId('telegram-submit')));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(posts()[0].body).toEqual({ command: 'help', description: 'How to', parse_mode: 'MarkdownV2', reply_message: 'Send /balance' });
  });

  it('loads a menu for editing, sends its id, and shows a refusal from the server', async () => {
    api = fakeApi((method, url) => {
      if (method === 'GET' && url.includes('/api/option/telegram/7')) return { id: 7, command: 'price', description: 'Prices', parse_mode: 'html', reply_message: '<b>cheap</b>' };
      if (method === 'POST') throw new Error('command已存在');
      return null;
    });
    renderWithProviders(<TelegramDialog open id={7} onClose={() => undefined} onSaved={() => undefined} />);
    await waitFor(() => expect((field(/Command/) as HTMLInputElement).value).toBe('price'));
    fireEvent.change(field(/Command/), { target: { value: 'balance' } });
    await act(async () => fireEvent.click(screen.getByTestId('telegram-submit')));
    expect((await screen.findAllByText(/command已存在/)).length).toBeGreaterThan(0);
    expect(posts()[0].body).toEqual({ id: 7, command: 'balance', description: 'Prices', parse_mode: 'html', reply_message: '<b>cheap</b>' });
  });
});
