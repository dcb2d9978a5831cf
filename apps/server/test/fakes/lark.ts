import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface LarkAccount {
  open_id: string;
  name?: string;
  avatar_url?: string;
}

/**
 * Feishu / Lark open platform: an app access token for app id + secret, a user access token for a
 * code (needs the app token, each code once), and user info for the user token. Errors are HTTP 200
 * with a non-zero `code`, as Lark answers.
 */
export class FakeLark extends FakeHttp<object> {
  private codes = new Map<string, LarkAccount>();
  private appTokens = new Set<string>();
  private userTokens = new Map<string, LarkAccount>();

  constructor(
    readonly appId: string,
    readonly appSecret: string,
  ) {
    super();
  }

  authorize(account: LarkAccount): string {
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, account);
    return code;
  }

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    const body = (req.body ?? {}) as Record<string, string>;
    if (req.method === 'POST' && req.path === '/open-apis/auth/v3/app_access_token/internal') {
      if (body.app_id !== this.appId || body.app_secret !== this.appSecret) return sendJson(res, { code: 10014, msg: 'app secret invalid' });
      const token = `t-${randomBytes(8).toString('hex')}`;
      this.appTokens.add(token);
      return sendJson(res, { code: 0, msg: 'ok', app_access_token: token, expire: 7200 });
    }
    if (req.method === 'POST' && req.path === '/open-apis/authen/v1/oidc/access_token') {
      if (!this.appTokens.has(req.key)) return sendJson(res, { code: 99991663, msg: 'app access token invalid' });
      const account = body.grant_type === 'authorization_code' ? this.codes.get(body.code) : undefined;
      this.codes.delete(body.code);
      if (!account) return sendJson(res, { code: 20003, msg: 'invalid code' });
      const token = `u-${randomBytes(8).toString('hex')}`;
      this.userTokens.set(token, account);
      return sendJson(res, { code: 0, msg: 'success', data: { access_token: token, token_type: 'Bearer', expires_in: 6900 } });
    }
    if (req.method === 'GET' && req.path === '/open-apis/authen/v1/user_info') {
      const account = this.userTokens.get(req.key);
      if (!account) return sendJson(res, { code: 99991668, msg: 'user access token invalid' });
      return sendJson(res, { code: 0, msg: 'success', data: { name: '', avatar_url: '', ...account } });
    }
    sendJson(res, { code: 404, msg: 'not found' }, 404);
  }
}
