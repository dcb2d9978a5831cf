import type { ChannelKey } from '@one-hub/contract';
import { ApiError, api, withQuery } from '../../lib/api';

/** The channel test and balance routes answer `{success, message, time|balance}` beside the envelope's data. */
async function rawCall<T extends object>(path: string, query?: Record<string, string | undefined>): Promise<{ success: boolean; message: string } & T> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), { credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError(e instanceof Error ? e.message : String(e), 0);
  }
  const body = (await res.json().catch(() => null)) as ({ success: boolean; message: string } & T) | null;
  if (!res.ok || !body) throw new ApiError(body?.message || `Request failed with status code ${res.status}`, res.status, body?.message || undefined);
  return body;
}

/** GET /api/channel/test/{id}?model=: seconds taken, or the failure message. */
export function testChannel(id: number, model?: string) {
  return rawCall<{ time: number }>(`/api/channel/test/${id}`, { model });
}

/** GET /api/channel/update_balance/{id}: the provider's current balance. */
export function refreshBalance(id: number) {
  return rawCall<{ balance: number }>(`/api/channel/update_balance/${id}`);
}

/** POST /api/channel/{id}/key: the stored key, an explicit reveal (audited; the detail leaves the key out). */
export function revealChannelKey(id: number) {
  return api<ChannelKey>(`/api/channel/${id}/key`, { method: 'POST' });
}
