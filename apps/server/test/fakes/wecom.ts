import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** A WeCom group robot (POST /cgi-bin/webhook/send?key=…): checks the key and the text message. */
export class FakeWeCom extends FakeHttp<object> {
  readonly messages: string[] = [];

  constructor(readonly key: string) {
    super();
  }

  get webhook(): string {
    return `${this.url}/cgi-bin/webhook/send?key=${this.key}`;
  }

  protected keyOf(): string {
    return '';
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.path !== '/cgi-bin/webhook/send' || req.query.get('key') !== this.key) return sendJson(res, { errcode: 93000, errmsg: 'invalid webhook url' });
    const content = req.body?.msgtype === 'text' ? String(req.body.text?.content ?? '') : '';
    if (!content) return sendJson(res, { errcode: 44004, errmsg: 'empty content' });
    if (Buffer.byteLength(content) > 2048) return sendJson(res, { errcode: 40058, errmsg: 'content exceed max length' });
    this.messages.push(content);
    sendJson(res, { errcode: 0, errmsg: 'ok' });
  }
}
