import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** A WeChat login server: `GET /api/wechat/user?code=` with the shared token answers the WeChat id, each code once. */
export class FakeWeChatLogin extends FakeHttp<object> {
  private codes = new Map<string, string>();

  constructor(readonly token: string) {
    super();
  }

  /** What the official account does when the person sends the verification word: a code for them. */
  issue(code: string, wechatId: string): string {
    this.codes.set(code, wechatId);
    return code;
  }

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.path !== '/api/wechat/user') return sendJson(res, { success: false, message: 'not found' }, 404);
    if (req.key !== this.token) return sendJson(res, { success: false, message: '无权进行此操作，token 无效' });
    const id = this.codes.get(req.query.get('code') ?? '');
    this.codes.delete(req.query.get('code') ?? '');
    sendJson(res, id ? { success: true, message: '', data: id } : { success: false, message: '验证码错误或已过期', data: '' });
  }
}
