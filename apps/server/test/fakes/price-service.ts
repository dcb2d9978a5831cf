import type { ServerResponse } from 'node:http';
import { FakeHttp, type Received } from './fake-http.js';

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The remote price list (UPDATE_PRICE_SERVICE, raw.githubusercontent.com by default): a static
 * JSON file answered to GET only, `{data: [...]}` or a bare array, 404 for any other path.
 * `answer` replaces the body (text or JSON) to test broken lists.
 */
export class FakePriceService extends FakeHttp<object> {
  prices: unknown[] = [];
  wrap = true;
  answer?: { status: number; body: unknown };

  protected keyOf(): string {
    return '';
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { message: 'method not allowed' });
    if (req.path !== '/prices.json') return send(res, 404, '404: Not Found');
    if (this.answer) return send(res, this.answer.status, this.answer.body);
    send(res, 200, this.wrap ? { data: this.prices } : this.prices);
  }
}
