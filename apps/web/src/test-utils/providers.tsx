import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { vi } from 'vitest';
import { makeStore } from '../store';

// Two cores shared by many test runs: give slow renders time before a findBy gives up.
configure({ asyncUtilTimeout: 5000 });

/** Renders console UI with the app's providers (store, queries, router, toasts) for component tests. */
export function renderWithProviders(ui: ReactNode, { route = '/' }: { route?: string } = {}) {
  const store = makeStore();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <Provider store={store}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>
          <SnackbarProvider>{ui}</SnackbarProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
  return { ...result, store, client };
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Replaces `fetch` with a fake console API: `answer(method, url, body)` gives the envelope's data
 * (or throws to answer success:false with that message). Every call is recorded.
 */
export function fakeApi(answer: (method: string, url: string, body: unknown) => unknown = () => null) {
  const calls: RecordedCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    try {
      const data = await answer(method, url, body);
      return new Response(JSON.stringify({ success: true, message: '', data }), { headers: { 'content-type': 'application/json' } });
    } catch (e) {
      return new Response(JSON.stringify({ success: false, message: e instanceof Error ? e.message : String(e) }), { headers: { 'content-type': 'application/json' } });
    }
  });
  return { calls, restore: () => spy.mockRestore() };
}
