import { OPTION_DEFS, checkOptionText, isOptionKey, type OptionKey } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';

/** Every registered option with its text, secrets left out (they are write-only). */
export function listOptions(ctx: AppContext): Array<{ key: string; value: string }> {
  return ctx.options
    .entries()
    .filter(([key]) => !('secret' in OPTION_DEFS[key] && OPTION_DEFS[key].secret))
    .map(([key, value]) => ({ key, value }));
}

/** Switches that need other settings filled before they may be turned on (api.md §27). */
const ENABLE_REQUIRES: Partial<Record<OptionKey, { needs: OptionKey[]; message: string }>> = {
  GitHubOAuthEnabled: { needs: ['GitHubClientId', 'GitHubClientSecret'], message: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！' },
  OIDCAuthEnabled: {
    needs: ['OIDCClientId', 'OIDCClientSecret', 'OIDCIssuer', 'OIDCScopes', 'OIDCUsernameClaims'],
    message: '无法启用 OIDC，请先填入OIDC信息！',
  },
  EmailDomainRestrictionEnabled: { needs: ['EmailDomainWhitelist'], message: '无法启用邮箱域名限制，请先填入限制的邮箱域名！' },
  WeChatAuthEnabled: { needs: ['WeChatServerAddress'], message: '无法启用微信登录，请先填入微信登录相关配置信息！' },
  TurnstileCheckEnabled: { needs: ['TurnstileSiteKey', 'TurnstileSecretKey'], message: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！' },
  LinuxDoOAuthEnabled: { needs: ['LinuxDoClientId', 'LinuxDoClientSecret'], message: '无法启用 LINUX DO 登录，请先填入 Client Id 以及 Client Secret！' },
  LarkAuthEnabled: { needs: ['LarkClientId', 'LarkClientSecret'], message: '无法启用飞书登录，请先填入飞书 Client Id 以及 Client Secret！' },
};

/** Validates before anything is written (the original stored bad values first). */
export async function updateOption(ctx: AppContext, key: string, value: string): Promise<void> {
  if (!isOptionKey(key)) throw apiError(400, 'unknown_option', { key });
  const def = OPTION_DEFS[key];
  if ('secret' in def && def.secret && value === '') return; // blank secret = unchanged
  const problem = checkOptionText(key, value);
  if (problem) throw apiError(400, 'option_invalid', { key, detail: problem }, { message: problem });
  const rule = ENABLE_REQUIRES[key];
  if (rule && value === 'true' && rule.needs.some((k) => !ctx.options.raw(k).trim())) {
    throw apiError(400, 'option_needs_config', { key, needs: rule.needs.join(', ') }, { message: rule.message });
  }
  await ctx.options.save({ [key]: value });
}
