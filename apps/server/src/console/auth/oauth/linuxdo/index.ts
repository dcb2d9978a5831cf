import { providerJson, trimBase } from '../http.js';
import { OAuthError, type OAuthProvider } from '../types.js';

interface TokenAnswer {
  access_token?: string;
  error?: string;
  error_description?: string;
}
interface LinuxDoUser {
  id: number;
  username: string;
  name?: string;
  avatar_template?: string;
  active: boolean;
  trust_level: number;
  silenced?: boolean;
}

/** LINUX DO Connect (OAuth2): token with HTTP Basic client authentication, then `/api/user`. */
export const linuxdo: OAuthProvider = {
  async exchange(config, creds, code) {
    const base = trimBase(config.LINUXDO_BASE_URL);
    const basic = Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64');
    const token = await providerJson<TokenAnswer>(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code }),
    });
    if (!token.access_token) throw new OAuthError(token.error_description || token.error || 'no access token');
    const user = await providerJson<LinuxDoUser>(`${base}/api/user`, { headers: { authorization: `Bearer ${token.access_token}` } });
    if (!user.id || !user.username) throw new OAuthError('LINUX DO user without id');
    return {
      id: String(user.id),
      login: user.username,
      name: user.name ?? '',
      // LINUX DO does not vouch for an address here: never used to find an account.
      email: '',
      verified: false,
      avatar: user.avatar_template ? user.avatar_template.replace('{size}', '120') : '',
      trustLevel: user.trust_level,
      active: user.active && !user.silenced,
    };
  },
};
