import { outboundRequest as request } from '../../../../egress/outbound.js';
import type { PaymentRow } from '../../../../db/repos/payments.js';
import type { NotifyOutcome, PayEnv, PayOrder, PayProvider } from '../../providers.js';
import { gatewayConfig } from '../config.js';
import { privateKeyOf, publicKeyOf } from '../keys.js';
import { alipaySign, alipayVerifyNotify, rsa2Verify, signedSection } from './sign.js';

const METHODS = {
  pagepay: { method: 'alipay.trade.page.pay', product_code: 'FAST_INSTANT_TRADE_PAY' },
  wappay: { method: 'alipay.trade.wap.pay', product_code: 'QUICK_WAP_WAY' },
} as const;

/** Beijing time as Alipay wants it: `yyyy-MM-dd HH:mm:ss`. */
function beijingNow(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function credentials(gateway: PaymentRow) {
  const cfg = gatewayConfig(gateway);
  if (!cfg.app_id || !cfg.private_key || !cfg.public_key) throw new Error('alipay gateway is missing app_id, private_key or public_key');
  return { appId: cfg.app_id, privateKey: privateKeyOf(cfg.private_key), alipayKey: publicKeyOf(cfg.public_key), payType: cfg.pay_type };
}

/** Signed common parameters plus biz_content (public-key mode, RSA2). */
function signedParams(gateway: PaymentRow, method: string, biz: Record<string, string>, extra: Record<string, string>) {
  const c = credentials(gateway);
  const params: Record<string, string> = { app_id: c.appId, method, format: 'JSON', charset: 'utf-8', sign_type: 'RSA2', timestamp: beijingNow(), version: '1.0', biz_content: JSON.stringify(biz), ...extra };
  params.sign = alipaySign(params, c.privateKey);
  return { params, c };
}

/**
 * Alipay open platform (api.md §23.2): `facepay` precreates a QR code (15-minute timeout);
 * `pagepay` / `wappay` answer a signed redirect to the gateway.
 */
async function createPayment(gateway: PaymentRow, order: PayOrder, env: PayEnv) {
  if (gateway.currency !== 'CNY') throw new Error('alipay charges CNY only: set the gateway currency to CNY');
  const biz = { out_trade_no: order.tradeNo, total_amount: order.pay.toFixed(2), subject: order.subject, timeout_express: '15m' };
  const payType = gatewayConfig(gateway).pay_type;
  if (payType === 'pagepay' || payType === 'wappay') {
    const m = METHODS[payType];
    const { params } = signedParams(gateway, m.method, { ...biz, product_code: m.product_code }, { notify_url: order.notifyUrl, return_url: order.returnUrl });
    return { type: 1, data: { url: env.config.ALIPAY_BASE_URL, method: 'GET', params } };
  }
  const { params, c } = signedParams(gateway, 'alipay.trade.precreate', biz, { notify_url: order.notifyUrl });
  const res = await request(env.config.ALIPAY_BASE_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
    body: new URLSearchParams(params).toString(),
    headersTimeout: 20_000,
    bodyTimeout: 20_000,
  });
  const raw = await res.body.text();
  const section = signedSection(raw, 'alipay_trade_precreate_response');
  let answer: { sign?: string; alipay_trade_precreate_response?: { code?: string; sub_msg?: string; msg?: string; qr_code?: string } };
  try {
    answer = JSON.parse(raw);
  } catch {
    throw new Error(`alipay answered ${res.statusCode} without JSON`);
  }
  const r = answer.alipay_trade_precreate_response;
  if (r?.code !== '10000' || !r.qr_code) throw new Error(`alipay precreate failed: ${r?.sub_msg ?? r?.msg ?? res.statusCode}`);
  if (!section || !answer.sign || !rsa2Verify(section, answer.sign, c.alipayKey)) throw new Error('alipay answer signature does not verify');
  return { type: 2, data: { url: r.qr_code, method: 'GET' } };
}

const text = (body: string): NotifyOutcome['ack'] => ({ status: 200, body, contentType: 'text/plain; charset=utf-8' });

/** Pure check of one notify (query and form merged): signed by Alipay for this app and paid. */
export function verifyAlipayNotify(gateway: PaymentRow, params: Record<string, string>): NotifyOutcome {
  let alipayKey;
  const cfg = gatewayConfig(gateway);
  try {
    alipayKey = cfg.public_key ? publicKeyOf(cfg.public_key) : null;
  } catch {
    alipayKey = null;
  }
  if (!alipayKey || !alipayVerifyNotify(params, alipayKey) || params.app_id !== cfg.app_id) return { notice: null, ack: text('failure') };
  if (params.trade_status !== 'TRADE_SUCCESS' && params.trade_status !== 'TRADE_FINISHED') return { notice: null, ack: text('success') };
  const amount = Number(params.total_amount);
  if (!params.out_trade_no || !Number.isFinite(amount)) return { notice: null, ack: text('failure') };
  return { notice: { tradeNo: params.out_trade_no, gatewayNo: params.trade_no ?? '', paid: { amount, currency: 'CNY' } }, ack: text('success') };
}

export const alipay: PayProvider = {
  createPayment,
  handleNotify: async (gateway, req) => {
    const query = Object.fromEntries(new URL(req.url, 'http://local').searchParams);
    const form = Buffer.isBuffer(req.body) ? Object.fromEntries(new URLSearchParams(req.body.toString('utf8'))) : {};
    return verifyAlipayNotify(gateway, { ...query, ...form });
  },
};
