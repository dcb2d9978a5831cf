import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from './fake-http.js';

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string;
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  status: 'open' | 'complete';
}

interface Endpoint {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  secret: string;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `Stripe-Signature` as Stripe writes it: `t=<seconds>,v1=<HMAC-SHA256(secret, "t.payload")>` (extra v1s allowed). */
export function stripeSignature(payload: string, secrets: string[], t = Math.floor(Date.now() / 1000)): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${payload}`).digest('hex')}`)].join(',');
}

/**
 * The slice of the Stripe API the gateway uses: webhook endpoints (list, create) and Checkout Sessions
 * (create). It checks the secret key (Bearer), the form encoding and every field a real account
 * would refuse, answers Stripe's error shape, and delivers signed `checkout.session.completed` events.
 */
export class FakeStripe {
  private server: Server;
  url = '';
  readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly endpoints: Endpoint[] = [];
  readonly sessions = new Map<string, FakeSession>();
  readonly requests: Array<{ method: string; path: string; form: Record<string, string> }> = [];

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
  }

  async start(): Promise<string> {
    return (this.url = await listenLoopback(this.server));
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(value));
    };
    const error = (status: number, message: string, param?: string) => send(status, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) return error(401, 'Invalid API Key provided');
    if (req.method === 'POST' && !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return error(400, 'form encoding expected');
    const form = Object.fromEntries(new URLSearchParams(req.method === 'POST' ? body : url.search));
    this.requests.push({ method: req.method ?? '', path: url.pathname, form });

    if (req.method === 'GET' && url.pathname === '/v1/webhook_endpoints') {
      return send(200, { object: 'list', url: '/v1/webhook_endpoints', has_more: false, data: this.endpoints.map(({ secret: _s, ...e }) => e) });
    }
    if (req.method === 'POST' && url.pathname === '/v1/webhook_endpoints') {
      if (!/^https?:\/\//.test(form.url ?? '')) return error(400, 'Invalid URL', 'url');
      const events = Object.keys(form).filter((k) => k.startsWith('enabled_events[')).map((k) => form[k]);
      if (events.length === 0) return error(400, 'Missing required param: enabled_events.', 'enabled_events');
      if (form.api_version !== undefined && !/^\d{4}-\d\d-\d\d\.\w+$/.test(form.api_version)) return error(400, 'Invalid api_version', 'api_version');
      const endpoint: Endpoint = { id: id('we'), object: 'webhook_endpoint', url: form.url, enabled_events: events, secret: `whsec_${randomBytes(16).toString('hex')}` };
      this.endpoints.push(endpoint);
      return send(200, endpoint);
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const li = 'line_items[0]';
      if (form.mode !== 'payment') return error(400, 'mode must be payment', 'mode');
      if (!/^https?:\/\//.test(form.success_url ?? '')) return error(400, 'Missing required param: success_url.', 'success_url');
      if (form[`${li}[quantity]`] !== '1') return error(400, 'quantity must be 1', `${li}[quantity]`);
      const currency = form[`${li}[price_data][currency]`];
      if (!['usd', 'cny'].includes(currency)) return error(400, 'Invalid currency', `${li}[price_data][currency]`);
      const unit = form[`${li}[price_data][unit_amount]`];
      if (!/^[1-9]\d*$/.test(unit ?? '')) return error(400, 'Invalid integer', `${li}[price_data][unit_amount]`);
      if (!form[`${li}[price_data][product_data][name]`]) return error(400, 'Missing product name', `${li}[price_data][product_data][name]`);
      if (Object.keys(form).some((k) => k.startsWith('line_items[1]'))) return error(400, 'one line item expected');
      const session: FakeSession = {
        id: id('cs_test'),
        object: 'checkout.session',
        url: '',
        mode: 'payment',
        amount_total: Number(unit),
        currency,
        client_reference_id: form.client_reference_id ?? '',
        customer_email: form.customer_email ?? null,
        metadata: Object.fromEntries(Object.entries(form).filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v])),
        success_url: form.success_url,
        payment_status: 'unpaid',
        payment_intent: null,
        status: 'open',
      };
      session.url = `${this.url}/c/pay/${session.id}`;
      this.sessions.set(session.id, session);
      return send(200, session);
    }
    error(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }

  /** An event as Stripe serialises it. */
  event(type: string, object: unknown): string {
    return JSON.stringify({ id: id('evt'), object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), type, livemode: false, data: { object } }, null, 2);
  }

  /** Sends a webhook to an endpoint's URL, signed with its secret unless a header is given. */
  async deliver(endpoint: { url: string; secret: string }, payload: string, header = stripeSignature(payload, [endpoint.secret])): Promise<{ status: number; text: string }> {
    const res = await fetch(endpoint.url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header } });
    return { status: res.status, text: await res.text() };
  }

  /** The customer paid: the session completes and every endpoint subscribed to the event is told. */
  async pay(sessionId: string): Promise<Array<{ status: number; text: string }>> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    Object.assign(session, { payment_status: 'paid', status: 'complete', payment_intent: session.payment_intent ?? id('pi') });
    const payload = this.event('checkout.session.completed', session);
    const targets = this.endpoints.filter((e) => e.enabled_events.includes('checkout.session.completed'));
    return Promise.all(targets.map((e) => this.deliver(e, payload)));
  }
}
