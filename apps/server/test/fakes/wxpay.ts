import { createCipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from './fake-http.js';
import { rsaPair } from './alipay.js';

export interface WxpayOrder {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  notify_url: string;
  amount: { total: number; currency: string };
  transaction_id: string;
}

/**
 * WeChat Pay API v3 (public-key mode): `POST /v3/pay/transactions/native` checks the merchant's
 * `WECHATPAY2-SHA256-RSA2048` Authorization with the merchant public key (mchid, serial, nonce, a fresh
 * timestamp) and the order fields, and answers `code_url` signed with the WeChat Pay key. Notifies carry
 * the transaction AES-256-GCM encrypted with the APIv3 key and the Wechatpay-* signature headers.
 */
export class FakeWxpay {
  private server: Server;
  url = '';
  readonly mchId = '1900009191';
  readonly appId = 'wxd678efh567hg6787';
  readonly merchant = rsaPair();
  readonly merchantSerial = randomBytes(20).toString('hex').toUpperCase();
  readonly platform = rsaPair();
  readonly publicKeyId = `PUB_KEY_ID_0119${randomBytes(8).toString('hex')}`;
  readonly apiV3Key = randomBytes(16).toString('hex');
  readonly orders = new Map<string, WxpayOrder>();
  readonly rejected: string[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        if (req.method !== 'POST' || path !== '/v3/pay/transactions/native') return this.send(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
        const authError = this.checkAuth(String(req.headers.authorization ?? ''), req.method, path, body);
        if (authError) {
          this.rejected.push(authError);
          return this.send(res, 401, { code: 'SIGN_ERROR', message: authError });
        }
        const o = JSON.parse(body) as WxpayOrder;
        const paramError =
          o.mchid !== this.mchId ? 'mchid does not match' :
          o.appid !== this.appId ? 'appid does not match' :
          !o.description || o.description.length > 127 ? 'bad description' :
          !/^[0-9A-Za-z_*|-]{6,32}$/.test(o.out_trade_no ?? '') ? 'bad out_trade_no' :
          !/^https?:\/\//.test(o.notify_url ?? '') ? 'bad notify_url' :
          !Number.isInteger(o.amount?.total) || o.amount.total < 1 ? 'amount.total must be a positive integer (fen)' :
          o.amount.currency !== 'CNY' ? 'currency must be CNY' : null;
        if (paramError) {
          this.rejected.push(paramError);
          return this.send(res, 400, { code: 'PARAM_ERROR', message: paramError });
        }
        const order = { ...o, transaction_id: `4200${Date.now()}${randomBytes(3).toString('hex')}` };
        this.orders.set(o.out_trade_no, order);
        this.send(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${order.transaction_id}` });
      });
    });
  }

  async start(): Promise<string> {
    return (this.url = await listenLoopback(this.server));
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private checkAuth(header: string, method: string, path: string, body: string): string | null {
    const m = header.match(/^WECHATPAY2-SHA256-RSA2048 (.+)$/);
    if (!m) return 'missing WECHATPAY2-SHA256-RSA2048 authorization';
    const f = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (f.mchid !== this.mchId) return 'unknown mchid';
    if (f.serial_no !== this.merchantSerial) return 'unknown certificate serial';
    if (!f.nonce_str || Math.abs(Date.now() / 1000 - Number(f.timestamp)) > 300) return 'stale timestamp or missing nonce';
    const message = `${method}\n${path}\n${f.timestamp}\n${f.nonce_str}\n${body}\n`;
    if (!createVerify('RSA-SHA256').update(message).verify(this.merchant.publicKey, f.signature ?? '', 'base64')) return 'signature does not verify';
    return null;
  }

  /** Wechatpay-* headers over a body, signed with the platform key (or `key`). */
  signedHeaders(body: string, opts: { key?: KeyObject; timestamp?: number; serial?: string } = {}): Record<string, string> {
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(opts.key ?? this.platform.privateKey, 'base64');
    return { 'wechatpay-timestamp': timestamp, 'wechatpay-nonce': nonce, 'wechatpay-signature': signature, 'wechatpay-serial': opts.serial ?? this.publicKeyId };
  }

  private send(res: ServerResponse, status: number, value: unknown) {
    const body = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', ...this.signedHeaders(body), 'request-id': randomBytes(8).toString('hex') });
    res.end(body);
  }

  /** A notify body for an order: the transaction (with `change` applied) encrypted with `apiV3Key`. */
  notifyBody(outTradeNo: string, change: Record<string, unknown> = {}, eventType = 'TRANSACTION.SUCCESS', apiV3Key = this.apiV3Key): string {
    const o = this.orders.get(outTradeNo);
    if (!o) throw new Error(`no wxpay order ${outTradeNo}`);
    const tx = {
      appid: o.appid, mchid: o.mchid, out_trade_no: o.out_trade_no, transaction_id: o.transaction_id, trade_type: 'NATIVE', trade_state: 'SUCCESS', trade_state_desc: '支付成功',
      bank_type: 'OTHERS', success_time: new Date().toISOString(), payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: o.amount.total, payer_total: o.amount.total, currency: 'CNY', payer_currency: 'CNY' }, ...change,
    };
    const nonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from('transaction'));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(tx)), cipher.final(), cipher.getAuthTag()]).toString('base64');
    return JSON.stringify({
      id: randomBytes(16).toString('hex'), create_time: new Date().toISOString(), resource_type: 'encrypt-resource', event_type: eventType, summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce },
    });
  }

  async notify(notifyUrl: string, body: string, headers = this.signedHeaders(body)): Promise<{ status: number; body: string }> {
    const res = await fetch(notifyUrl, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, body: await res.text() };
  }

  pay(outTradeNo: string) {
    return this.notify(this.orders.get(outTradeNo)!.notify_url, this.notifyBody(outTradeNo));
  }
}
