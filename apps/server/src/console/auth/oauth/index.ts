import type { OptionKey } from '@one-hub/contract';
import { github } from './github/index.js';
import { lark } from './lark/index.js';
import { linuxdo } from './linuxdo/index.js';
import type { OAuthProvider } from './types.js';

export interface ProviderEntry {
  provider: OAuthProvider;
  enabled: OptionKey;
  clientId: OptionKey;
  clientSecret: OptionKey;
  /** Refusal while the switch is off (api.md §13 wording). */
  disabledMessage: string;
}

/** The code-exchange providers; the only list naming them. */
export const OAUTH_PROVIDERS = {
  github: {
    provider: github,
    enabled: 'GitHubOAuthEnabled',
    clientId: 'GitHubClientId',
    clientSecret: 'GitHubClientSecret',
    disabledMessage: '管理员未开启通过 GitHub 登录以及注册',
  },
  lark: {
    provider: lark,
    enabled: 'LarkAuthEnabled',
    clientId: 'LarkClientId',
    clientSecret: 'LarkClientSecret',
    disabledMessage: '管理员未开启通过飞书登录以及注册',
  },
  linuxdo: {
    provider: linuxdo,
    enabled: 'LinuxDoOAuthEnabled',
    clientId: 'LinuxDoClientId',
    clientSecret: 'LinuxDoClientSecret',
    disabledMessage: '管理员未开启通过 LINUX DO 登录以及注册',
  },
} as const satisfies Record<string, ProviderEntry>;

export type OAuthProviderId = keyof typeof OAUTH_PROVIDERS;
