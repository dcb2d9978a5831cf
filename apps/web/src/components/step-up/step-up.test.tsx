import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import i18n from '../../lib/i18n';
import { api } from '../../lib/api';
import { useStepUp } from './use-step-up';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));
const webauthn = vi.hoisted(() => ({ supported: true, asked: [] as unknown[] }));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => webauthn.supported,
  startAuthentication: async ({ optionsJSON }: { optionsJSON: unknown }) => {
    webauthn.asked.push(optionsJSON);
    return { id: 'cred-1', type: 'public-key' };
  },
}));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common']);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.length = 0;
  webauthn.asked.length = 0;
});

const REFUSED = (factors: object) => new Response(JSON.stringify({ success: false, message: 'confirm first', code: 'step_up_required', data: factors }), { status: 403 });

/** A console API that refuses the key until POST /api/user/step_up accepted `123456` (or any passkey assertion). */
function fakeServer(factors: { two_factor: boolean; passkey: boolean }) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  let confirmed = false;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    const ok = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }));
    if (url === '/api/channel/7') return confirmed ? ok({ key: 'sk-full-key' }) : REFUSED(factors);
    if (url === '/api/user/step_up/passkey') return ok({ publicKey: { challenge: 'abc', rpId: 'hub.example.com' } });
    if (url === '/api/user/step_up') {
      confirmed = body.code === '123456' || Boolean(body.passkey);
      return confirmed ? ok({ expires_at: 1 }) : new Response(JSON.stringify({ success: false, message: 'Wrong code' }), { status: 400 });
    }
    return new Response('{}', { status: 404 });
  });
  return calls;
}

function Reveal() {
  const stepUp = useStepUp();
  const [key, setKey] = useState('');
  const [failed, setFailed] = useState('');
  const reveal = () =>
    stepUp
      .run(() => api<{ key: string }>('/api/channel/7'))
      .then((c) => setKey(c.key))
      .catch((e: Error) => setFailed(e.message));
  return (
    <>
      <button onClick={() => void reveal()}>reveal</button>
      <span data-testid="key">{key}</span>
      <span data-testid="failed">{failed}</span>
      {stepUp.dialog}
    </>
  );
}

describe('step-up dialog', { timeout: 30_000 }, () => {
  it('asks for a code when the server wants a confirmation, shows a wrong code, and retries after a good one', async () => {
    const calls = fakeServer({ two_factor: true, passkey: false });
    render(<Reveal />);
    fireEvent.click(screen.getByText('reveal'));
    expect(await screen.findByText("Confirm it's you")).toBeTruthy();
    expect(screen.queryByTestId('step-up-passkey')).toBeNull();
    const submit = screen.getByTestId('step-up-submit') as HTMLButtonElement;
    fireEvent.change(screen.getByTestId('step-up-code'), { target: { value: '123' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('step-up-code'), { target: { value: '000000' } });
    fireEvent.click(submit);
    await waitFor(() => expect(toasts.join()).toContain('Wrong code'));
    expect(screen.getByTestId('key').textContent).toBe('');
    fireEvent.change(screen.getByTestId('step-up-code'), { target: { value: ' 123456 ' } });
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('key').textContent).toBe('sk-full-key'));
    await waitFor(() => expect(screen.queryByText("Confirm it's you")).toBeNull());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/channel/7', 'POST /api/user/step_up', 'POST /api/user/step_up', 'GET /api/channel/7']);
    expect(calls[2].body).toEqual({ code: '123456' });
  });

  it('confirms with a passkey when that is the only factor (no code field)', async () => {
    const calls = fakeServer({ two_factor: false, passkey: true });
    render(<Reveal />);
    fireEvent.click(screen.getByText('reveal'));
    fireEvent.click(await screen.findByTestId('step-up-passkey'));
    await waitFor(() => expect(screen.getByTestId('key').textContent).toBe('sk-full-key'));
    expect(screen.queryByTestId('step-up-code')).toBeNull();
    expect(webauthn.asked).toEqual([{ challenge: 'abc', rpId: 'hub.example.com' }]);
    expect(calls.find((c) => c.url === '/api/user/step_up')?.body).toEqual({ passkey: { id: 'cred-1', type: 'public-key' } });
  });

  it('gives up without retrying when the dialog is cancelled', async () => {
    const calls = fakeServer({ two_factor: true, passkey: true });
    render(<Reveal />);
    fireEvent.click(screen.getByText('reveal'));
    expect(await screen.findByTestId('step-up-passkey')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    // The refusal reaches the caller as the reader's translation of its code.
    await waitFor(() => expect(screen.getByTestId('failed').textContent).toMatch(/^Please confirm it is you/));
    expect(calls).toHaveLength(1);
  });
});
