import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface GitHubAccount {
  id: number;
  login: string;
  name?: string;
  avatar_url?: string;
  /** Addresses as `/user/emails` lists them. */
  emails?: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/**
 * GitHub's OAuth token endpoint (github.com) and REST API (api.github.com) in one server. Like GitHub it
 * checks the client id and secret, accepts each code once, answers errors as 200 `{error}` on the token
 * endpoint, and lists e-mails only for a token granted `user:email`.
 */
export class FakeGitHub extends FakeHttp<object> {
  private codes = new Map<string, { account: GitHubAccount; scope: string }>();
  private tokens = new Map<string, { account: GitHubAccount; scope: string }>();

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {
    super();
  }

  /** What the authorize page does when the person approves: a fresh single-use code. */
  authorize(account: GitHubAccount, scope = 'user:email'): string {
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, { account, scope });
    return code;
  }

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '').replace(/^(Bearer|token)\s+/i, '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.method === 'POST' && req.path === '/login/oauth/access_token') return this.token(req, res);
    const grant = this.tokens.get(req.key);
    if (!grant) return sendJson(res, { message: 'Bad credentials' }, 401);
    if (req.method === 'GET' && req.path === '/user') {
      const { emails: _e, ...user } = grant.account;
      const publicEmail = grant.account.emails?.find((e) => e.primary)?.email ?? null;
      return sendJson(res, { ...user, email: publicEmail, type: 'User' });
    }
    if (req.method === 'GET' && req.path === '/user/emails') {
      if (!grant.scope.split(',').includes('user:email')) return sendJson(res, { message: 'Not Found' }, 404);
      return sendJson(res, grant.account.emails ?? []);
    }
    sendJson(res, { message: 'Not Found' }, 404);
  }

  private token(req: Received, res: ServerResponse): void {
    const p = typeof req.body === 'object' && req.body ? req.body : Object.fromEntries(new URLSearchParams(req.raw));
    if (p.client_id !== this.clientId || p.client_secret !== this.clientSecret) {
      return sendJson(res, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
    }
    const grant = this.codes.get(String(p.code));
    this.codes.delete(String(p.code));
    if (!grant) return sendJson(res, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
    const token = `gho_${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, grant);
    const answer = { access_token: token, token_type: 'bearer', scope: grant.scope };
    // Without `Accept: application/json` GitHub answers form-encoded.
    if (!String(req.headers.accept ?? '').includes('json')) {
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
      return void res.end(new URLSearchParams(answer).toString());
    }
    sendJson(res, answer);
  }
}
