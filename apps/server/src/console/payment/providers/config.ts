import type { PaymentRow } from '../../../db/repos/payments.js';

/** The gateway's `config` JSON as strings; junk reads as empty. */
export function gatewayConfig(gateway: Pick<PaymentRow, 'config'>): Record<string, string> {
  try {
    const raw: unknown = JSON.parse(gateway.config || '{}');
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : v == null ? '' : String(v)]));
  } catch {
    return {};
  }
}

/** The callback's parameters: the query string, or a form body when the query carries none. */
export function callbackParams(url: string, body: unknown): URLSearchParams {
  const query = new URL(url, 'http://local').searchParams;
  if ([...query.keys()].length > 0 || !Buffer.isBuffer(body)) return query;
  return new URLSearchParams(body.toString('utf8'));
}
