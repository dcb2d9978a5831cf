import { OAUTH_PROVIDER_LABELS } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import type { UserRow } from '../../db/repos/users.js';
import { OAUTH_PROVIDERS, type OAuthProviderId } from './oauth/index.js';
import { OAuthError, type OAuthProfile } from './oauth/types.js';
import { resolveAccount, type Resolution } from './resolver.js';
import { wechatIdOf } from '../user/binding-service.js';

const PROVIDER_NAME: Record<OAuthProviderId, string> = { github: 'GitHub', lark: '飞书', linuxdo: 'LINUX DO' };

export interface CallbackInput {
  code: string;
  aff?: string;
  current?: UserRow;
  ip: string;
}

/** An OAuth callback: the provider proves a profile, the resolver decides the account. */
export async function oauthCallback(ctx: AppContext, id: OAuthProviderId, input: CallbackInput): Promise<Resolution> {
  const entry = OAUTH_PROVIDERS[id];
  if (!ctx.options.get(entry.enabled)) throw apiError(403, 'oauth_disabled', { provider: OAUTH_PROVIDER_LABELS[id] }, { message: entry.disabledMessage });
  const creds = { clientId: ctx.options.get(entry.clientId), clientSecret: ctx.options.get(entry.clientSecret) };
  let profile: OAuthProfile;
  try {
    profile = await entry.provider.exchange(ctx.config, creds, input.code);
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    if (e.unreachable) throw apiError(502, 'oauth_unreachable', { provider: OAUTH_PROVIDER_LABELS[id] }, { message: `无法连接至 ${PROVIDER_NAME[id]} 服务器，请稍后重试！` });
    throw apiError(400, 'oauth_failed', { provider: OAUTH_PROVIDER_LABELS[id], reason: e.message }, { message: `${PROVIDER_NAME[id]} 授权失败: ${e.message}` });
  }
  if (id === 'linuxdo') checkLinuxDo(ctx, profile);
  // Lark accounts never take an inviter (api.md §13).
  return resolveAccount(ctx, { kind: id, profile, current: input.current, aff: id === 'lark' ? undefined : input.aff, ip: input.ip });
}

function checkLinuxDo(ctx: AppContext, profile: OAuthProfile): void {
  if (profile.active === false) throw apiError(403, 'linuxdo_inactive');
  const min = ctx.options.get('LinuxDoMinTrustLevel');
  if ((profile.trustLevel ?? 0) < min) throw apiError(403, 'linuxdo_trust_level', { min });
}

/** WeChat sign-in through the WeChat login server (api.md §13): no state, no inviter. */
export async function wechatLogin(ctx: AppContext, code: string, ip: string): Promise<UserRow> {
  if (!ctx.options.get('WeChatAuthEnabled')) throw apiError(403, 'wechat_disabled');
  const id = await wechatIdOf(ctx, code);
  const profile = { id, login: '', name: 'WeChat User', email: '', verified: false, avatar: '' };
  return (await resolveAccount(ctx, { kind: 'wechat', profile, ip })).user;
}
