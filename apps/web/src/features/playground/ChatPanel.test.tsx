import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import ChatPanel from './components/ChatPanel';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'playground']);
  Element.prototype.scrollIntoView = () => undefined; // jsdom has no layout
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const price = (type: 'tokens' | 'times', input: number, output: number) => ({ groups: ['default'], owned_by: 'OpenAI', price: { model: '', type, channel_type: 1, input, output, locked: false } });
/** The site's models (every group's), as /api/available_model lists them. */
const SITE = {
  'gpt-4o': price('tokens', 1.25, 5),
  'claude-vip': price('tokens', 1.5, 7.5),
  'text-embedding-3-small': price('tokens', 0.01, 0),
  mj_imagine: price('times', 50, 0),
};
/** What /v1/models answers for each token: the models its group may use. */
const BY_TOKEN: Record<string, string[]> = {
  'sk-play': ['gpt-4o', 'mj_imagine', 'text-embedding-3-small'],
  'sk-vip': ['claude-vip', 'gpt-4o'],
};
const TOKENS = [
  { id: 1, key: 'play', name: 'sys_playground', status: 1, group: '' },
  { id: 2, key: 'vip', name: 'vip-token', status: 1, group: 'vip' },
];

type Sent = { model: string; messages: Array<{ role: string; content: string }> };
function fakeGateway() {
  const chats: Sent[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = input.split('?')[0];
    const auth = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '') ?? '';
    const envelope = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }));
    if (url === '/api/token/playground') return envelope('play');
    if (url === '/api/token/') return envelope({ data: TOKENS, total_count: 2 });
    if (url === '/api/available_model') return envelope(SITE);
    if (url === '/v1/models') return BY_TOKEN[auth] ? new Response(JSON.stringify({ object: 'list', data: BY_TOKEN[auth].map((id) => ({ id, object: 'model' })) })) : new Response('{"error":{"message":"bad key"}}', { status: 401 });
    if (url === '/v1/chat/completions') {
      chats.push(JSON.parse(String(init!.body)) as Sent);
      return new Response(JSON.stringify({ error: { message: `refused #${chats.length}`, type: 'invalid_request_error' } }), { status: 400 });
    }
    return new Response('{}', { status: 404 });
  });
  return chats;
}

/** The model picker's choices (opened, read, closed again on its first choice). */
const options = () => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Model', hidden: true }));
  const choices = within(screen.getByRole('listbox')).getAllByRole('option');
  const names = choices.map((o) => o.textContent);
  fireEvent.click(choices[0]);
  return names;
};

describe('playground chat', { timeout: 30_000 }, () => {
  it("offers only the chat models the selected token's group can use", async () => {
    fakeGateway();
    renderWithProviders(<ChatPanel />);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Model' }).textContent).toBe('gpt-4o'));
    expect(options()).toEqual(['gpt-4o']);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Token', hidden: true }));
    fireEvent.click(await screen.findByRole('option', { name: 'vip-token' }));
    await waitFor(() => expect(options()).toEqual(['claude-vip', 'gpt-4o']));
  });

  it('keeps one error bubble per failed turn and does not send failed turns again', async () => {
    const chats = fakeGateway();
    renderWithProviders(<ChatPanel />);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Model' }).textContent).toBe('gpt-4o'));
    for (const text of ['first', 'second']) {
      fireEvent.change(screen.getByTestId('chat-input'), { target: { value: text } });
      fireEvent.click(screen.getByTestId('chat-send'));
      await waitFor(() => expect(screen.getAllByTestId('chat-error')).toHaveLength(chats.length));
    }
    await waitFor(() => expect((screen.getByTestId('chat-send') as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getAllByTestId('chat-error').map((e) => e.textContent)).toEqual(['refused #1', 'refused #2']);
    expect(screen.getAllByTestId('chat-user').map((e) => e.textContent)).toEqual(['first', 'second']);
    expect(chats.map((c) => c.messages)).toEqual([[{ role: 'user', content: 'first' }], [{ role: 'user', content: 'second' }]]);
  });
});
