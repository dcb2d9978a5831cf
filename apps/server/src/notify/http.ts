import type { Dispatcher } from 'undici';
import { outboundFetch } from '../egress/outbound.js';

const TIMEOUT_MS = 10_000;

/** POSTs a JSON body and answers the parsed JSON answer; a non-2xx status is an error. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}, dispatcher?: Dispatcher): Promise<any> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await outboundFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: payload,
    dispatcher,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
