import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { closeServer, listenLoopback } from './fake-http.js';

/** A fresh RSA-2048 pair, as bare base64 (the form Alipay's key tool prints) and as PEM. */
export function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    publicKey,
    privateBase64: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicBase64: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** Alipay's signing content, written independently: sorted non-empty `k=v` pairs joined by `&`. */
const content = (p: Record<string, string>, skip: string[]) =>
  Object.keys(p).filter((k) => !skip.includes(k) && p[k] !== '').sort().map((k) => `${k}=${p[k]}`).join('&');

export interface AlipayTrade {
  out_trade_no: string;
  total_amount: string;
  subject: string;
  notify_url: string;
  method: string;
  trade_no: string;
}

/**
 * Alipay's open platform gateway (`/gateway.do`, RSA2 public-key mode): checks the app, the signature
 * with the app's public key, the common parameters and biz_content; precreate answers a signed QR code;
 * page/wap pay (a browser GET) shows a cashier page. Notifies are signed with Alipay's own key.
 */
export class FakeAlipay {
  private server: Server;
  url = '';
  readonly appId = `2021${randomBytes(6).toString('hex').replace(/\D/g, '7').slice(0, 12)}`;
  readonly app = rsaPair();
  readonly alipay = rsaPair();
  readonly trades = new Map<string, AlipayTrade>();
  readonly rejected: string[] = [];
  private seq = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const params = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) };
        if (url.pathname !== '/gateway.do') {
          res.writeHead(404);
          return res.end();
        }
        const error = this.check(params);
        const method = params.method ?? '';
        const responseName = `${method.replace(/\./g, '_')}_response`;
        if (error) {
          this.rejected.push(error);
          return this.answer(res, responseName, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: error });
        }
        const biz = JSON.parse(params.biz_content);
        const trade: AlipayTrade = { out_trade_no: biz.out_trade_no, total_amount: biz.total_amount, subject: biz.subject, notify_url: params.notify_url, method, trade_no: `2026${Date.now()}${++this.seq}` };
        this.trades.set(trade.out_trade_no, trade);
        if (method === 'alipay.trade.precreate') {
          return this.answer(res, responseName, { code: '10000', msg: 'Success', out_trade_no: trade.out_trade_no, qr_code: `https://qr.alipay.com/${trade.trade_no}` });
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<html><body>Alipay cashier ${trade.total_amount}</body></html>`);
      });
    });
  }

  async start(): Promise<string> {
    return (this.url = await listenLoopback(this.server));
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private check(p: Record<string, string>): string | null {
    if (p.app_id !== this.appId) return 'unknown app_id';
    if (p.sign_type !== 'RSA2' || p.charset !== 'utf-8' || p.format !== 'JSON' || p.version !== '1.0') return 'bad common parameters';
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(p.timestamp ?? '')) return 'bad timestamp';
    if (!createVerify('RSA-SHA256').update(content(p, ['sign'])).verify(this.app.publicKey, p.sign ?? '', 'base64')) return 'signature does not verify';
    if (!['alipay.trade.precreate', 'alipay.trade.page.pay', 'alipay.trade.wap.pay'].includes(p.method)) return 'unknown method';
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(p.biz_content);
    } catch {
      return 'biz_content is not JSON';
    }
    if (!/^\d+(\.\d{1,2})?$/.test(biz.total_amount ?? '') || Number(biz.total_amount) < 0.01) return 'bad total_amount';
    if (!biz.out_trade_no || !biz.subject) return 'missing out_trade_no or subject';
    if (p.method === 'alipay.trade.page.pay' && biz.product_code !== 'FAST_INSTANT_TRADE_PAY') return 'bad product_code';
    if (p.method === 'alipay.trade.wap.pay' && biz.product_code !== 'QUICK_WAP_WAY') return 'bad product_code';
    if (!/^https?:\/\//.test(p.notify_url ?? '')) return 'bad notify_url';
    return null;
  }

  private answer(res: import('node:http').ServerResponse, name: string, body: Record<string, string>) {
    const section = JSON.stringify(body);
    const sign = createSign('RSA-SHA256').update(section).sign(this.alipay.privateKey, 'base64');
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    res.end(`{"${name}":${section},"sign":"${sign}"}`);
  }

  /** Notify parameters signed with Alipay's key (or `key`), after applying `change`. */
  notifyParams(outTradeNo: string, change: Record<string, string> = {}, key: KeyObject = this.alipay.privateKey): Record<string, string> {
    const t = this.trades.get(outTradeNo);
    if (!t) throw new Error(`no alipay trade ${outTradeNo}`);
    const now = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const p: Record<string, string> = {
      gmt_create: now, charset: 'utf-8', seller_email: 'shop@example.com', subject: t.subject, buyer_id: '2088102177846880', invoice_amount: t.total_amount,
      notify_id: randomBytes(8).toString('hex'), fund_bill_list: '[{"amount":"' + t.total_amount + '","fundChannel":"ALIPAYACCOUNT"}]', notify_type: 'trade_status_sync',
      trade_status: 'TRADE_SUCCESS', receipt_amount: t.total_amount, app_id: this.appId, buyer_pay_amount: t.total_amount, sign_type: 'RSA2', seller_id: '2088102176220421',
      gmt_payment: now, notify_time: now, version: '1.0', out_trade_no: t.out_trade_no, total_amount: t.total_amount, trade_no: t.trade_no, auth_app_id: this.appId, point_amount: '0.00',
      ...change,
    };
    p.sign = createSign('RSA-SHA256').update(content(p, ['sign', 'sign_type'])).sign(key, 'base64');
    return p;
  }

  /** Posts a notify form like Alipay does; answers what the merchant said. */
  async notify(notifyUrl: string, params: Record<string, string>, asQuery = false): Promise<string> {
    const body = new URLSearchParams(params).toString();
    const res = asQuery
      ? await fetch(`${notifyUrl}?${body}`)
      : await fetch(notifyUrl, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } });
    return res.text();
  }

  pay(outTradeNo: string): Promise<string> {
    return this.notify(this.trades.get(outTradeNo)!.notify_url, this.notifyParams(outTradeNo));
  }
}
