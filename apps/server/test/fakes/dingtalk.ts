import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/**
 * A DingTalk group robot (POST /robot/send?access_token=…): checks the token, the signature
 * (HMAC-SHA256 of "timestamp\nsecret", base64, timestamp within an hour) and the keyword, as the
 * robot's security settings do, and answers DingTalk's errcode/errmsg.
 */
export class FakeDingTalk extends FakeHttp<object> {
  readonly messages: string[] = [];
  failures = 0;

  constructor(readonly token: string, readonly security: { secret?: string; keyword?: string }) {
    super();
  }

  protected keyOf(): string {
    return '';
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (this.failures > 0) {
      this.failures--;
      return sendJson(res, { errcode: -1, errmsg: 'system busy' });
    }
    if (req.path !== '/robot/send' || req.query.get('access_token') !== this.token) return sendJson(res, { errcode: 300001, errmsg: 'token is not exist' });
    const { secret, keyword } = this.security;
    if (secret) {
      const timestamp = Number(req.query.get('timestamp'));
      const expected = createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
      if (!timestamp || Math.abs(Date.now() - timestamp) > 3_600_000 || req.query.get('sign') !== expected) {
        return sendJson(res, { errcode: 310000, errmsg: 'sign not match' });
      }
    }
    const content = req.body?.msgtype === 'text' ? String(req.body.text?.content ?? '') : '';
    if (!content) return sendJson(res, { errcode: 40035, errmsg: 'missing parameter content' });
    if (keyword && !content.includes(keyword)) return sendJson(res, { errcode: 310000, errmsg: 'keywords not in content' });
    this.messages.push(content);
    sendJson(res, { errcode: 0, errmsg: 'ok' });
  }
}
