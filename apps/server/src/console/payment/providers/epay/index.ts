import type { PaymentRow } from '../../../../db/repos/payments.js';
import type { NotifyOutcome, PayOrder, PayProvider } from '../../providers.js';
import { callbackParams, gatewayConfig } from '../config.js';
import { epaySign, epayVerify } from './sign.js';

/**
 * Epay (易支付-compatible aggregators), api.md §23.2 / §23.4: the browser posts a signed form to
 * `{pay_domain}/submit.php`; the aggregator calls back with a signed query string.
 */
function createPayment(gateway: PaymentRow, order: PayOrder) {
  const cfg = gatewayConfig(gateway);
  if (!cfg.pay_domain || !cfg.partner_id || !cfg.key) throw new Error('epay gateway is missing pay_domain, partner_id or key');
  const params: Record<string, string> = {
    pid: cfg.partner_id,
    type: cfg.pay_type ?? '',
    out_trade_no: order.tradeNo,
    notify_url: order.notifyUrl,
    return_url: order.returnUrl,
    name: order.tradeNo,
    money: order.pay.toFixed(2),
  };
  for (const k of Object.keys(params)) if (params[k] === '') delete params[k];
  params.sign = epaySign(params, cfg.key);
  params.sign_type = 'MD5';
  return Promise.resolve({ type: 1, data: { url: `${cfg.pay_domain.replace(/\/+$/, '')}/submit.php`, method: 'POST', params } });
}

const text = (body: string): NotifyOutcome['ack'] => ({ status: 200, body, contentType: 'text/plain; charset=utf-8' });

/** Pure check of one callback: a verified TRADE_SUCCESS for this merchant, or nothing. */
export function verifyEpayNotify(gateway: PaymentRow, params: URLSearchParams): NotifyOutcome {
  const cfg = gatewayConfig(gateway);
  const p = Object.fromEntries(params);
  // Without a key nothing can be verified, so nothing is accepted.
  if (!cfg.key || !cfg.partner_id || !epayVerify(p, cfg.key) || p.pid !== cfg.partner_id) return { notice: null, ack: text('fail') };
  if (p.trade_status !== 'TRADE_SUCCESS') return { notice: null, ack: text('success') };
  const amount = Number(p.money);
  if (!p.out_trade_no || !Number.isFinite(amount)) return { notice: null, ack: text('fail') };
  return {
    notice: { tradeNo: p.out_trade_no, gatewayNo: p.trade_no ?? '', paid: { amount, currency: gateway.currency } },
    ack: text('success'),
  };
}

export const epay: PayProvider = {
  createPayment,
  handleNotify: async (gateway, req) => verifyEpayNotify(gateway, callbackParams(req.url, req.body)),
};
