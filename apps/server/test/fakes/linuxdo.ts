import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface LinuxDoAccount {
  id: number;
  username: string;
  name?: string;
  trust_level: number;
  active?: boolean;
  silenced?: boolean;
}

/**
 * LINUX DO Connect: `/oauth2/token` takes the client by HTTP Basic authentication (RFC 6749 §2.3.1)
 * and a form body with grant_type=authorization_code, each code once; `/api/user` wants the bearer token.
 */
export class FakeLinuxDo extends FakeHttp<object> {
  private codes = new Map<string, LinuxDoAccount>();
  private tokens = new Map<string, LinuxDoAccount>();

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {
    super();
  }

  authorize(account: LinuxDoAccount): string {
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, account);
    return code;
  }

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.method === 'POST' && req.path === '/oauth2/token') return this.token(req, res);
    if (req.method === 'GET' && req.path === '/api/user') {
      const account = this.tokens.get(req.key.replace(/^Bearer\s+/i, ''));
      if (!account) return sendJson(res, { error: 'invalid_token' }, 401);
      return sendJson(res, { active: true, silenced: false, avatar_template: `https://linux.do/avatar/${account.id}/{size}.png`, ...account });
    }
    sendJson(res, { error: 'not_found' }, 404);
  }

  private token(req: Received, res: ServerResponse): void {
    const basic = Buffer.from(req.key.replace(/^Basic\s+/i, ''), 'base64').toString();
    if (basic !== `${this.clientId}:${this.clientSecret}`) return sendJson(res, { error: 'invalid_client' }, 401);
    const form = new URLSearchParams(req.raw);
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') || form.get('grant_type') !== 'authorization_code') {
      return sendJson(res, { error: 'unsupported_grant_type' }, 400);
    }
    const account = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    if (!account) return sendJson(res, { error: 'invalid_grant' }, 400);
    const token = randomBytes(12).toString('hex');
    this.tokens.set(token, account);
    sendJson(res, { access_token: token, token_type: 'bearer', expires_in: 3600 });
  }
}
