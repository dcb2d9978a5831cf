import { outboundFetch } from '../../../egress/outbound.js';
import { OAuthError } from './types.js';

const TIMEOUT_MS = 5000;

/** JSON request to a provider; network failures and non-2xx answers become an unreachable OAuthError. */
export async function providerJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  let res: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    res = await outboundFetch(url, { ...init, headers: { accept: 'application/json', ...(init.headers as Record<string, string>) } as never, body: init.body as never, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    throw new OAuthError(`${new URL(url).host}: ${(e as Error).message}`, true);
  }
  const text = await res.text();
  if (res.status >= 500) throw new OAuthError(`${new URL(url).host} answered HTTP ${res.status}`, true);
  // A 4xx is the provider's verdict (bad client, used code): a refusal, not an outage.
  if (!res.ok) throw new OAuthError(refusalText(text) || `HTTP ${res.status}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new OAuthError(`${new URL(url).host} answered no JSON`, true);
  }
}

export const trimBase = (url: string) => url.replace(/\/+$/, '');

function refusalText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown; message?: unknown };
    return String(body.error_description ?? body.error ?? body.message ?? '').slice(0, 200);
  } catch {
    return '';
  }
}
