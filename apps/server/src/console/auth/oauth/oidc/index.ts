import * as client from 'openid-client';
import { failureText, isConnectionFailure, oidcFetch } from '../../../../egress/outbound.js';
import { OAuthError, type OAuthProfile } from '../types.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Option OIDCScopes, comma-separated. */
  scopes: string;
  /** Option OIDCUsernameClaims: the claim holding the username. */
  usernameClaim: string;
  redirectUri: string;
}

/** What the callback needs from the authorization request (kept server-side, keyed by the state). */
export interface OidcPending {
  verifier: string;
  nonce: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
let cached: { key: string; config: Promise<client.Configuration> } | undefined;

/** Discovery result for the current settings; a changed option means a new discovery, no restart. */
function configurationFor(s: OidcSettings): Promise<client.Configuration> {
  const key = JSON.stringify([s.issuer, s.clientId, s.clientSecret]);
  if (cached?.key !== key) {
    const issuer = new URL(s.issuer);
    // Plain http only for an issuer on this machine (a test or a local IdP).
    const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
    const config = client.discovery(issuer, s.clientId, s.clientSecret, undefined, {
      timeout: 5,
      [client.customFetch]: oidcFetch, // discovery, JWKS, token and userinfo calls all pass the egress guard
      execute: insecure ? [client.allowInsecureRequests] : [],
    });
    cached = { key, config };
    config.catch(() => {
      if (cached?.config === config) cached = undefined;
    });
  }
  return cached.config;
}

/** The authorize URL with PKCE (S256) and a nonce; the caller keeps `pending` for the callback. */
export async function authorizeUrl(s: OidcSettings, state: string): Promise<{ url: string; pending: OidcPending }> {
  const config = await configurationFor(s).catch((e: Error) => {
    throw new OAuthError(failureText(e), true);
  });
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const scope = s.scopes.split(',').map((x) => x.trim()).filter(Boolean);
  if (!scope.includes('openid')) scope.unshift('openid');
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: s.redirectUri,
    scope: scope.join(' '),
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    access_type: 'offline',
  });
  return { url: url.href, pending: { verifier, nonce } };
}

/**
 * Code → tokens; openid-client verifies the ID token's signature, issuer, audience, expiry and nonce.
 * Claims missing from the ID token are read from the userinfo endpoint (for the same subject).
 */
export async function exchange(s: OidcSettings, callback: URL, state: string, pending: OidcPending): Promise<OAuthProfile> {
  const config = await configurationFor(s);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedNonce: pending.nonce,
      expectedState: state,
      idTokenExpected: true,
    });
  } catch (e) {
    if (isConnectionFailure(e)) throw new OAuthError(`token endpoint unreachable: ${failureText(e)}`, true);
    throw new OAuthError(`Failed to exchange token: ${(e as Error).message}`);
  }
  let claims: Record<string, unknown> = { ...tokens.claims() };
  const sub = String(claims.sub ?? '');
  if (!sub) throw new OAuthError('ID Token 中没有 Subject');
  if (claims[s.usernameClaim] === undefined && tokens.access_token) {
    claims = { ...(await client.fetchUserInfo(config, tokens.access_token, sub)), ...claims };
  }
  const login = claims[s.usernameClaim];
  if (typeof login !== 'string' || !login) throw new OAuthError('用户没有OIDC登录权限');
  return {
    id: sub,
    login,
    name: typeof claims.name === 'string' ? claims.name : '',
    email: typeof claims.email === 'string' ? claims.email : '',
    verified: claims.email_verified === true,
    avatar: typeof claims.picture === 'string' ? claims.picture : '',
  };
}
