import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** A PushDeer server (POST /message/push with pushkey, text, desp, type), answering its code/content shape. */
export class FakePushDeer extends FakeHttp<object> {
  readonly messages: Array<{ text: string; desp: string }> = [];

  constructor(readonly pushkey: string) {
    super();
  }

  protected keyOf(): string {
    return '';
  }

  protected handle(req: Received, res: ServerResponse): void {
    const p = typeof req.body === 'object' ? req.body : Object.fromEntries(new URLSearchParams(String(req.raw)));
    if (req.path !== '/message/push') return sendJson(res, { code: 404, error: 'not found' }, 404);
    if (p.pushkey !== this.pushkey) return sendJson(res, { code: 80403, error: 'key not found' });
    if (!p.text) return sendJson(res, { code: 80400, error: 'text is required' });
    this.messages.push({ text: p.text, desp: p.desp ?? '' });
    sendJson(res, { code: 0, content: { result: ['{"counts":1}'] } });
  }
}
