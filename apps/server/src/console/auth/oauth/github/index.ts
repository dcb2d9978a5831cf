import { providerJson, trimBase } from '../http.js';
import { OAuthError, type OAuthProvider } from '../types.js';

interface TokenAnswer {
  access_token?: string;
  scope?: string;
  error?: string;
  error_description?: string;
}
interface GitHubUser {
  id: number;
  login: string;
  name?: string | null;
  email?: string | null;
  avatar_url?: string;
}
interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub OAuth app (the console's authorize link names no redirect_uri, so neither does the exchange):
 * code → token at GITHUB_BASE_URL, profile and e-mails at GITHUB_API_BASE_URL.
 */
export const github: OAuthProvider = {
  async exchange(config, creds, code) {
    const token = await providerJson<TokenAnswer>(`${trimBase(config.GITHUB_BASE_URL)}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret, code }),
    });
    if (!token.access_token) throw new OAuthError(token.error_description || token.error || 'no access token');
    const api = trimBase(config.GITHUB_API_BASE_URL);
    const headers = { authorization: `Bearer ${token.access_token}`, 'x-github-api-version': '2022-11-28' };
    const user = await providerJson<GitHubUser>(`${api}/user`, { headers });
    if (!user.id || !user.login) throw new OAuthError('GitHub user without id');
    // The profile's public e-mail is not proven to be the account's: only a verified primary address is.
    let email = '';
    const scopes = (token.scope ?? '').split(/[ ,]+/);
    if (scopes.includes('user:email') || scopes.includes('user')) {
      const emails = await providerJson<GitHubEmail[]>(`${api}/user/emails`, { headers });
      email = (Array.isArray(emails) ? emails : []).find((e) => e.primary && e.verified)?.email ?? '';
    }
    return {
      id: user.login,
      numericId: user.id,
      login: user.login,
      name: user.name ?? '',
      email,
      verified: email !== '',
      avatar: user.avatar_url ?? '',
    };
  },
};
