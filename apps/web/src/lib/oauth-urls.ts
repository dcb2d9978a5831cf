/** Provider authorize URLs (console-spec §7). Pure. */
export function githubAuthorizeUrl(clientId: string, state: string): string {
  const q = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' });
  return `https://github.com/login/oauth/authorize?${q}`;
}

export function larkAuthorizeUrl(appId: string, state: string, origin: string): string {
  const q = new URLSearchParams({ redirect_uri: `${origin}/oauth/lark`, app_id: appId, state });
  return `https://open.feishu.cn/open-apis/authen/v1/index?${q}`;
}

export function linuxdoAuthorizeUrl(clientId: string, state: string): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: clientId, state });
  return `https://connect.linux.do/oauth2/authorize?${q}`;
}

/** The OAuth callback path's provider (`/oauth/github` → github), or null. */
export function callbackProvider(pathname: string): 'github' | 'oidc' | 'lark' | 'linuxdo' | null {
  const m = pathname.match(/^\/oauth\/(github|oidc|lark|linuxdo)\/?$/);
  return m ? (m[1] as 'github' | 'oidc' | 'lark' | 'linuxdo') : null;
}

/** Query parameters for a login call, with the stored invite code when there is one. */
export function withAff(params: Record<string, string>, aff: string | null): Record<string, string> {
  return aff ? { ...params, aff } : params;
}
