import { describe, expect, it } from 'vitest';
import { callbackProvider, githubAuthorizeUrl, larkAuthorizeUrl, linuxdoAuthorizeUrl, withAff } from './oauth-urls';

describe('oauth urls', () => {
  it('builds the GitHub URL with client id, state and user:email scope', () => {
    const u = new URL(githubAuthorizeUrl('cid', 'st8'));
    expect(u.origin + u.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(u.searchParams)).toEqual({ client_id: 'cid', state: 'st8', scope: 'user:email' });
  });
  it('sends Lark back to our /oauth/lark and LINUX-DO with response_type=code', () => {
    expect(new URL(larkAuthorizeUrl('app', 's', 'https://hub.example')).searchParams.get('redirect_uri')).toBe('https://hub.example/oauth/lark');
    expect(new URL(linuxdoAuthorizeUrl('c', 's')).searchParams.get('response_type')).toBe('code');
  });
  it('reads the provider from the callback path', () => {
    expect(callbackProvider('/oauth/github')).toBe('github');
    expect(callbackProvider('/oauth/oidc/')).toBe('oidc');
    expect(callbackProvider('/oauth/evil')).toBeNull();
  });
  it('adds the invite code only when stored', () => {
    expect(withAff({ code: 'c' }, null)).toEqual({ code: 'c' });
    expect(withAff({ code: 'c' }, 'AFF1')).toEqual({ code: 'c', aff: 'AFF1' });
  });
});
