import type { Envelope } from '@one-hub/contract';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
/** Called on any 401: the stored user is dropped and the app returns to sign-in. */
export const onUnauthorized = (l: Listener) => {
  unauthorizedListeners.add(l);
  return () => {
    unauthorizedListeners.delete(l);
  };
};

/** Calls /api and unwraps the `{success, message, data}` envelope; failures throw ApiError with the server's message. */
export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    credentials: 'same-origin',
    headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  if (res.status === 401) unauthorizedListeners.forEach((l) => l());
  let body: Envelope<T> | undefined;
  try {
    body = (await res.json()) as Envelope<T>;
  } catch {
    body = undefined;
  }
  if (!res.ok || !body?.success) throw new ApiError(body?.message || `HTTP ${res.status}`, res.status);
  return body.data as T;
}
