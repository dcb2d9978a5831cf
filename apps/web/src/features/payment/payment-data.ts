import type { ChipColor } from '../../components/data';

/** Order status → chip colour (console-screens §3.15: the real string values). */
export function orderStatusColor(status: string): ChipColor {
  switch (status) {
    case 'pending':
      return 'primary';
    case 'success':
      return 'success';
    case 'failed':
      return 'error';
    case 'closed':
      return 'default';
    default:
      return 'secondary';
  }
}

/** A stored fee fraction (0.03) as the percent people read (3%). */
export function feePercent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}

export interface ConfigField {
  key: string;
  /** Choices of a select; absent for text. */
  options?: readonly string[];
  multiline?: boolean;
  secret?: boolean;
  /** Filled by the server (Stripe's webhook secret). */
  readOnly?: boolean;
}

/** The credential fields of each gateway type, in the order the dialog shows them (api.md §23.1). */
export const CONFIG_FIELDS: Record<string, ConfigField[]> = {
  epay: [{ key: 'pay_domain' }, { key: 'partner_id' }, { key: 'key', secret: true }, { key: 'pay_type', options: ['', 'alipay', 'wxpay', 'qqpay', 'jdpay', 'bank', 'paypal', 'usdt'] }],
  alipay: [{ key: 'app_id' }, { key: 'private_key', multiline: true, secret: true }, { key: 'public_key', multiline: true }, { key: 'pay_type', options: ['facepay', 'pagepay', 'wappay'] }],
  wxpay: [
    { key: 'app_id' },
    { key: 'mch_id' },
    { key: 'mch_certificate_serial_number' },
    { key: 'mch_apiv3_key', secret: true },
    { key: 'mch_private_key', multiline: true, secret: true },
    { key: 'wechatpay_public_key_id' },
    { key: 'wechatpay_public_key', multiline: true },
    { key: 'pay_type', options: ['Native'] },
  ],
  stripe: [{ key: 'secret_key', secret: true }, { key: 'webhook_secret', readOnly: true }],
};

/** Parsed `config` text; anything but a JSON object reads as empty. */
export function readConfig(text: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : String(x ?? '')]));
  } catch {
    return {};
  }
}

/** The config JSON for a type: its own keys only, with the first choice of a select as default. */
export function writeConfig(type: string, values: Record<string, string>): string {
  const fields = CONFIG_FIELDS[type] ?? [];
  return JSON.stringify(Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? f.options?.[0] ?? ''])));
}
