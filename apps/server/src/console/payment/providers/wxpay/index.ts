import { outboundRequest as request } from '../../../../egress/outbound.js';
import type { PaymentRow } from '../../../../db/repos/payments.js';
import type { NotifyOutcome, PayEnv, PayOrder, PayProvider } from '../../providers.js';
import { gatewayConfig } from '../config.js';
import { privateKeyOf, publicKeyOf } from '../keys.js';
import { wxpayAuthorization, wxpayDecrypt, wxpayVerify, type EncryptedResource, type WxpayHeaders } from './sign.js';

const NATIVE_PATH = '/v3/pay/transactions/native';

/** The WeChat Pay public key (public-key mode) and its id; null when either is unset or unreadable. */
function platformKey(cfg: Record<string, string>) {
  if (!cfg.wechatpay_public_key || !cfg.wechatpay_public_key_id) return null;
  try {
    return { key: publicKeyOf(cfg.wechatpay_public_key), id: cfg.wechatpay_public_key_id };
  } catch {
    return null;
  }
}

/** WeChat Pay API v3 Native order (api.md §23.2): `code_url` as a QR code, amount in fen. */
async function createPayment(gateway: PaymentRow, order: PayOrder, env: PayEnv) {
  const cfg = gatewayConfig(gateway);
  const platform = platformKey(cfg);
  if (!cfg.app_id || !cfg.mch_id || !cfg.mch_certificate_serial_number || !cfg.mch_private_key || !platform) {
    throw new Error('wxpay gateway is missing app_id, mch_id, certificate serial, private key or WeChat Pay public key');
  }
  if (gateway.currency !== 'CNY') throw new Error('WeChat Pay Native charges CNY only: set the gateway currency to CNY');
  const body = JSON.stringify({
    appid: cfg.app_id,
    mchid: cfg.mch_id,
    description: order.subject,
    out_trade_no: order.tradeNo,
    time_expire: new Date(Date.now() + 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    notify_url: order.notifyUrl,
    amount: { total: Math.round(order.pay * 100), currency: 'CNY' },
  });
  const authorization = wxpayAuthorization({ method: 'POST', path: NATIVE_PATH, body, mchId: cfg.mch_id, serial: cfg.mch_certificate_serial_number, key: privateKeyOf(cfg.mch_private_key) });
  const res = await request(`${env.config.WECHATPAY_BASE_URL.replace(/\/+$/, '')}${NATIVE_PATH}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'one-hub' },
    body,
    headersTimeout: 20_000,
    bodyTimeout: 20_000,
  });
  const raw = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`wechat pay answered ${res.statusCode}: ${raw.slice(0, 200)}`);
  const h = res.headers;
  const header = (name: string) => (typeof h[name] === 'string' ? (h[name] as string) : undefined);
  const signed: WxpayHeaders = { timestamp: header('wechatpay-timestamp'), nonce: header('wechatpay-nonce'), signature: header('wechatpay-signature'), serial: header('wechatpay-serial') };
  if (!wxpayVerify(signed, raw, platform.key, platform.id)) throw new Error('wechat pay answer signature does not verify');
  const codeUrl = (JSON.parse(raw) as { code_url?: string }).code_url;
  if (!codeUrl) throw new Error('wechat pay answered no code_url');
  return { type: 2, data: { url: codeUrl, method: 'GET' } };
}

const fail = (message: string): NotifyOutcome => ({ notice: null, ack: { status: 400, body: { code: 'FAIL', message } } });
const OK: NotifyOutcome['ack'] = { status: 204, body: '' };

interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; currency?: string };
}

/** Pure check of one notify: signature over the raw body, then the decrypted transaction. */
export function verifyWxpayNotify(gateway: PaymentRow, headers: WxpayHeaders, raw: Buffer | undefined, now = Date.now()): NotifyOutcome {
  const cfg = gatewayConfig(gateway);
  const platform = platformKey(cfg);
  if (!platform || !cfg.mch_apiv3_key) return fail('gateway verification keys are not set');
  if (!raw || !wxpayVerify(headers, raw.toString('utf8'), platform.key, platform.id, now)) return fail('signature verification failed');
  let event: { event_type?: string; resource?: EncryptedResource };
  let tx: Transaction;
  try {
    event = JSON.parse(raw.toString('utf8'));
    tx = JSON.parse(wxpayDecrypt(event.resource!, cfg.mch_apiv3_key));
  } catch {
    return fail('resource decryption failed');
  }
  if (event.event_type !== 'TRANSACTION.SUCCESS' || tx.trade_state !== 'SUCCESS') return { notice: null, ack: OK };
  if (tx.mchid !== cfg.mch_id || !tx.out_trade_no || typeof tx.amount?.total !== 'number') return fail('transaction is not for this merchant');
  return {
    notice: { tradeNo: tx.out_trade_no, gatewayNo: tx.transaction_id ?? '', paid: { amount: tx.amount.total / 100, currency: tx.amount.currency ?? 'CNY' } },
    ack: OK,
  };
}

export const wxpay: PayProvider = {
  createPayment,
  handleNotify: async (gateway, req) => {
    const one = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const headers = { timestamp: one('wechatpay-timestamp'), nonce: one('wechatpay-nonce'), signature: one('wechatpay-signature'), serial: one('wechatpay-serial') };
    return verifyWxpayNotify(gateway, headers, Buffer.isBuffer(req.body) ? req.body : undefined);
  },
};
