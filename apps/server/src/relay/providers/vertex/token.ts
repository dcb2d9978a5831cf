import { createHash } from 'node:crypto';
import { HubError } from '../../../common/errors.js';
import { outboundFetch } from '../../../egress/outbound.js';
import { serviceAccountAssertion, type ServiceAccount } from './service-account.js';

/** Posts a form to the token endpoint; injectable so the relay can route it through the channel's proxy. */
export type TokenPoster = (url: string, form: string) => Promise<{ status: number; body: string }>;

const defaultPoster: TokenPoster = async (url, form) => {
  const res = await outboundFetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  return { status: res.status, body: await res.text() };
};

/** A token is renewed this long before Google says it expires. */
const RENEW_BEFORE_MS = 5 * 60_000;

interface Cached {
  token: string;
  expiresAt: number;
}

/**
 * OAuth access tokens of service accounts (JWT bearer grant), cached per
 * service-account key until near expiry. Concurrent requests for the same key
 * share one exchange.
 */
export class VertexTokenCache {
  private tokens = new Map<string, Cached>();
  private pending = new Map<string, Promise<string>>();

  constructor(
    private readonly post: TokenPoster = defaultPoster,
    private readonly now: () => number = Date.now,
  ) {}

  /** The account's token; `post` (default: the cache's own) carries a fresh exchange, e.g. through a channel proxy. */
  async get(sa: ServiceAccount, post: TokenPoster = this.post): Promise<string> {
    const id = `${sa.clientEmail}|${sa.privateKeyId ?? createHash('sha256').update(sa.privateKey).digest('hex')}`;
    const cached = this.tokens.get(id);
    if (cached && cached.expiresAt - RENEW_BEFORE_MS > this.now()) return cached.token;
    const running = this.pending.get(id);
    if (running) return running;
    const exchange = this.exchange(sa, post).then(
      (fresh) => {
        this.tokens.set(id, fresh);
        this.pending.delete(id);
        return fresh.token;
      },
      (err) => {
        this.pending.delete(id);
        throw err;
      },
    );
    this.pending.set(id, exchange);
    return exchange;
  }

  private async exchange(sa: ServiceAccount, post: TokenPoster): Promise<Cached> {
    const startedAt = this.now();
    const form = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: serviceAccountAssertion(sa, Math.floor(startedAt / 1000)),
    }).toString();
    let res: { status: number; body: string };
    try {
      res = await post(sa.tokenUri, form);
    } catch (err) {
      throw new HubError(502, `vertex token exchange failed: ${(err as Error).message}`, { retryable: true });
    }
    let json: any = null;
    try {
      json = JSON.parse(res.body);
    } catch {
      // reported below with the status
    }
    if (res.status !== 200 || typeof json?.access_token !== 'string') {
      const reason = json?.error_description ?? json?.error ?? `status ${res.status}`;
      throw new HubError(401, `vertex token exchange failed: ${reason}`, { retryable: true, upstream: res.body });
    }
    const lifetime = Number.isFinite(Number(json.expires_in)) ? Number(json.expires_in) * 1000 : 3600_000;
    return { token: json.access_token, expiresAt: startedAt + lifetime };
  }
}
