import type { AppContext } from '../../app-context.js';
import { HubError, apiError } from '../../common/errors.js';
import { failureText } from '../../egress/outbound.js';
import { authorizeUrl, exchange, type OidcPending, type OidcSettings } from './oauth/oidc/index.js';
import { OAuthError, type OAuthProfile } from './oauth/types.js';
import { resolveAccount, type Resolution } from './resolver.js';
import { STATE_TTL_SECONDS } from './state.js';
import type { CallbackInput } from './service.js';

const pendingKey = (state: string) => `oidc_pending:${state}`;

/** What a caller sees when the provider cannot be reached; the cause (address, error text) is logged only. */
export const OIDC_UNAVAILABLE = 'OIDC 服务暂不可用，请稍后重试 (OIDC provider unavailable)';

function unavailable(ctx: AppContext, error: unknown): HubError {
  ctx.log.warn(`OIDC provider ${ctx.options.get('OIDCIssuer')} unavailable: ${failureText(error)}`);
  return apiError(502, 'oidc_unavailable', undefined, { message: OIDC_UNAVAILABLE });
}

/** Read on every request, so option changes apply at once. */
function settings(ctx: AppContext): OidcSettings {
  const o = ctx.options;
  if (!o.get('OIDCAuthEnabled')) throw apiError(403, 'oidc_disabled');
  return {
    issuer: o.get('OIDCIssuer'),
    clientId: o.get('OIDCClientId'),
    clientSecret: o.get('OIDCClientSecret'),
    scopes: o.get('OIDCScopes'),
    usernameClaim: o.get('OIDCUsernameClaims'),
    redirectUri: `${o.get('ServerAddress').replace(/\/+$/, '')}/oauth/oidc`,
  };
}

/** GET /api/oauth/endpoint: the authorize URL; the PKCE verifier and nonce stay on the server. */
export async function oidcEndpoint(ctx: AppContext, state: string): Promise<string> {
  const s = settings(ctx);
  let answer: Awaited<ReturnType<typeof authorizeUrl>>;
  try {
    answer = await authorizeUrl(s, state);
  } catch (e) {
    throw unavailable(ctx, e);
  }
  await ctx.store.set(pendingKey(state), JSON.stringify(answer.pending), STATE_TTL_SECONDS);
  return answer.url;
}

/** GET /api/oauth/oidc, after the state was taken: code exchange, ID token checks, then the resolver. */
export async function oidcCallback(ctx: AppContext, query: Record<string, string>, state: string, input: Omit<CallbackInput, 'code'>): Promise<Resolution> {
  const s = settings(ctx);
  const raw = await ctx.store.get(pendingKey(state));
  await ctx.store.del(pendingKey(state));
  if (!raw) throw new HubError(403, 'state is empty or not same', { code: 'oauth_state' });
  const callback = new URL(s.redirectUri);
  for (const [k, v] of Object.entries(query)) if (k !== 'aff' && typeof v === 'string') callback.searchParams.set(k, v);
  let profile: OAuthProfile;
  try {
    profile = await exchange(s, callback, state, JSON.parse(raw) as OidcPending);
  } catch (e) {
    if (e instanceof OAuthError && !e.unreachable) throw e.message === '用户没有OIDC登录权限' ? apiError(403, 'oidc_forbidden') : apiError(400, 'oauth_failed', { provider: 'OIDC', reason: e.message }, { message: e.message });
    throw unavailable(ctx, e);
  }
  return resolveAccount(ctx, { kind: 'oidc', profile, current: input.current, aff: input.aff, ip: input.ip });
}
