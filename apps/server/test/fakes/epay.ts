import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { closeServer, listenLoopback } from './fake-http.js';

/** An order the aggregator accepted from a checked submit form. */
export interface EpayOrder {
  pid: string;
  type: string;
  out_trade_no: string;
  notify_url: string;
  return_url: string;
  name: string;
  money: string;
  /** The aggregator's own trade number. */
  trade_no: string;
}

const PAY_TYPES = new Set(['alipay', 'wxpay', 'qqpay', 'jdpay', 'bank', 'paypal', 'usdt']);

/** The aggregator's MD5 rule, written out independently of the gateway's code. */
export function epayFakeSign(params: Record<string, string>, key: string): string {
  const keys = Object.keys(params).filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '').sort();
  return createHash('md5').update(keys.map((k) => `${k}=${params[k]}`).join('&') + key).digest('hex');
}

/**
 * A 易支付-compatible aggregator: `POST /submit.php` takes the merchant's signed form (refused with the
 * reason when the merchant, signature, amount or URLs are wrong), shows a checkout page whose button
 * (`GET /pay/:out_trade_no`) pays the order: a signed notify to the merchant's notify_url, then a
 * redirect to its return_url.
 */
export class FakeEpay {
  private server: Server;
  url = '';
  /** Merchant id → key. */
  readonly merchants = new Map<string, string>();
  readonly orders = new Map<string, EpayOrder>();
  readonly rejected: string[] = [];
  private seq = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const html = (status: number, body: string) => {
          res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html><body>${body}</body></html>`);
        };
        if (req.method === 'POST' && url.pathname === '/submit.php') {
          const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
          const error = this.check(form);
          if (error) {
            this.rejected.push(error);
            return html(400, `<h1>${error}</h1>`);
          }
          const order: EpayOrder = { pid: form.pid, type: form.type ?? '', out_trade_no: form.out_trade_no, notify_url: form.notify_url, return_url: form.return_url, name: form.name, money: form.money, trade_no: `EP${Date.now()}${++this.seq}` };
          this.orders.set(order.out_trade_no, order);
          return html(200, `<h1>Epay checkout</h1><p id="money">${order.money}</p><a id="pay" href="/pay/${order.out_trade_no}">Pay</a>`);
        }
        const pay = url.pathname.match(/^\/pay\/(\d+)$/);
        if (req.method === 'GET' && pay) {
          void this.pay(pay[1]).then(
            (answer) => {
              if (answer.text !== 'success') return html(502, `merchant answered ${answer.text}`);
              res.writeHead(302, { location: this.orders.get(pay[1])!.return_url });
              res.end();
            },
            () => html(404, 'no such order'),
          );
          return;
        }
        html(404, 'not found');
      });
    });
  }

  async start(): Promise<string> {
    return (this.url = await listenLoopback(this.server));
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private check(form: Record<string, string>): string | null {
    const key = this.merchants.get(form.pid ?? '');
    if (!key) return 'unknown merchant';
    if (form.sign_type !== 'MD5' || form.sign !== epayFakeSign(form, key)) return 'bad signature';
    if (!/^\d+\.\d{2}$/.test(form.money ?? '') || Number(form.money) <= 0) return 'bad money';
    if (form.type !== undefined && !PAY_TYPES.has(form.type)) return 'bad type';
    if (!/^\d+$/.test(form.out_trade_no ?? '') || !form.name) return 'bad order';
    for (const u of [form.notify_url, form.return_url]) if (!/^https?:\/\//.test(u ?? '')) return 'bad url';
    return null;
  }

  /** The signed notify parameters for an order; `change` tampers with them after signing when `resign` is false. */
  notifyParams(outTradeNo: string, change: Record<string, string> = {}, resign = true): Record<string, string> {
    const order = this.orders.get(outTradeNo);
    if (!order) throw new Error(`no epay order ${outTradeNo}`);
    const key = this.merchants.get(order.pid)!;
    const base: Record<string, string> = { pid: order.pid, trade_no: order.trade_no, out_trade_no: order.out_trade_no, type: order.type || 'alipay', name: order.name, money: order.money, trade_status: 'TRADE_SUCCESS' };
    if (!resign) return { ...base, sign: epayFakeSign(base, key), sign_type: 'MD5', ...change };
    const params = { ...base, ...change };
    return { ...params, sign: epayFakeSign(params, key), sign_type: 'MD5' };
  }

  /** Calls the merchant's notify_url like the aggregator does (GET with the query string). */
  async notify(notifyUrl: string, params: Record<string, string>): Promise<{ status: number; text: string }> {
    const res = await fetch(`${notifyUrl}?${new URLSearchParams(params)}`);
    return { status: res.status, text: await res.text() };
  }

  /** The buyer paid: the aggregator notifies the merchant. */
  pay(outTradeNo: string): Promise<{ status: number; text: string }> {
    const order = this.orders.get(outTradeNo);
    if (!order) return Promise.reject(new Error('no such order'));
    return this.notify(order.notify_url, this.notifyParams(outTradeNo));
  }
}
