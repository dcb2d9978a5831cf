import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/**
 * A Feishu/Lark custom robot (POST /open-apis/bot/v2/hook/{token}): checks the token, the
 * signature (HMAC-SHA256 keyed by "timestamp\nsecret" over an empty message, base64, timestamp in
 * seconds within an hour) and the keyword, answering Lark's code/msg.
 */
export class FakeLark extends FakeHttp<object> {
  readonly messages: string[] = [];

  constructor(readonly token: string, readonly security: { secret?: string; keyword?: string }) {
    super();
  }

  protected keyOf(): string {
    return '';
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.path !== `/open-apis/bot/v2/hook/${this.token}`) {
      return sendJson(res, { code: 19001, msg: 'param invalid: incoming webhook access token invalid' });
    }
    const { secret, keyword } = this.security;
    if (secret) {
      const timestamp = Number(req.body?.timestamp);
      const expected = createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
      if (!timestamp || Math.abs(Date.now() / 1000 - timestamp) > 3600 || req.body?.sign !== expected) {
        return sendJson(res, { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' });
      }
    }
    const text = req.body?.msg_type === 'text' ? String(req.body.content?.text ?? '') : '';
    if (!text) return sendJson(res, { code: 9499, msg: 'Bad Request' });
    if (keyword && !text.includes(keyword)) return sendJson(res, { code: 19024, msg: 'Key Words Not Found' });
    this.messages.push(text);
    sendJson(res, { code: 0, msg: 'success', data: {} });
  }
}
