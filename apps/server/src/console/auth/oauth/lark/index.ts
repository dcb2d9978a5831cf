import { providerJson, trimBase } from '../http.js';
import { OAuthError, type OAuthProvider } from '../types.js';

interface LarkAnswer {
  code: number;
  msg?: string;
}
interface AppToken extends LarkAnswer {
  app_access_token?: string;
}
interface UserToken extends LarkAnswer {
  data?: { access_token?: string };
}
interface UserInfo extends LarkAnswer {
  data?: { open_id?: string; name?: string; avatar_url?: string };
}

/** Lark / Feishu: app access token (app id + secret) → user access token for the code → user info. */
export const lark: OAuthProvider = {
  async exchange(config, creds, code) {
    const base = trimBase(config.LARK_BASE_URL);
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const app = await providerJson<AppToken>(`${base}/open-apis/auth/v3/app_access_token/internal`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ app_id: creds.clientId, app_secret: creds.clientSecret }),
    });
    if (app.code !== 0 || !app.app_access_token) throw new OAuthError(app.msg || 'no app access token');
    const user = await providerJson<UserToken>(`${base}/open-apis/authen/v1/oidc/access_token`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${app.app_access_token}` },
      body: JSON.stringify({ grant_type: 'authorization_code', code }),
    });
    const userToken = user.data?.access_token;
    if (user.code !== 0 || !userToken) throw new OAuthError(user.msg || 'no user access token');
    const info = await providerJson<UserInfo>(`${base}/open-apis/authen/v1/user_info`, {
      headers: { authorization: `Bearer ${userToken}` },
    });
    const openId = info.data?.open_id;
    if (info.code !== 0 || !openId) throw new OAuthError(info.msg || 'Lark user without open_id');
    // Lark's e-mail fields are not proven addresses: never used to find an account.
    return { id: openId, login: '', name: info.data?.name ?? '', email: '', verified: false, avatar: info.data?.avatar_url ?? '' };
  },
};
