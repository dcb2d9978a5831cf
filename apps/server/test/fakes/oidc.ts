import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

export interface OidcAccount {
  preferred_username?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * A real OpenID Provider (oidc-provider) on loopback: discovery, signed ID tokens (its generated keys),
 * PKCE required, codes single-use, redirect URIs checked. `approve` plays the person at its login and
 * consent pages (the development interactions) and answers the redirect back to the console.
 */
export class FakeOidc {
  readonly accounts = new Map<string, OidcAccount>();
  private server?: Server;
  issuer = '';
  /** TCP connections accepted (egress tests prove none was made). */
  connections = 0;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
    readonly redirectUri: string,
  ) {}

  async start(): Promise<string> {
    this.server = createServer();
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: [this.redirectUri],
          response_types: ['code'],
          grant_types: ['authorization_code'],
        },
      ],
      findAccount: async (_ctx: unknown, sub: string) => {
        const account = this.accounts.get(sub);
        return account ? { accountId: sub, claims: async () => ({ sub, ...account }) } : undefined;
      },
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email', 'email_verified'] },
      pkce: { required: () => true },
      cookies: { keys: ['fake-oidc-cookie-key'] },
      // ID tokens signed with a key made here, not the library's development keys.
      jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' }] },
    });
    this.server.on('request', provider.callback());
    return this.issuer;
  }

  /** Follows the authorize URL through login and consent as `sub`; answers the console callback's query. */
  async approve(authorizeUrl: string, sub: string): Promise<URLSearchParams> {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      return res;
    };
    let url = authorizeUrl;
    for (let hop = 0; hop < 12; hop++) {
      if (url.startsWith(this.redirectUri)) return new URL(url).searchParams;
      let res = await send(url);
      const path = new URL(url).pathname;
      if (res.status === 200 && path.startsWith('/interaction/')) {
        const html = await res.text();
        const prompt: Record<string, string> = html.includes('name="login"') ? { prompt: 'login', login: sub, password: 'x' } : { prompt: 'consent' };
        res = await send(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(prompt) });
      }
      const next = res.headers.get('location');
      if (!next) throw new Error(`OIDC flow stopped at ${url}: HTTP ${res.status} ${await res.text()}`);
      url = new URL(next, url).href;
    }
    throw new Error('OIDC flow did not reach the redirect URI');
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}
