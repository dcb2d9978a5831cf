import { z } from 'zod';
import { text } from './format/text.js';

/** Sign-in methods a user can unbind from the profile (api.md §13). */
export const UNBIND_TYPES = ['github', 'wechat', 'lark', 'oidc', 'linuxdo'] as const;
export type UnbindType = (typeof UNBIND_TYPES)[number];

export const UnbindBody = z.object({
  type: z.enum(UNBIND_TYPES, { error: '未知的绑定类型' }),
});

export const EmailBindQuery = z.object({
  email: z.email('无效的参数').max(50),
  code: text({ error: '验证码错误或已过期' }).trim().min(1, '验证码错误或已过期').max(64),
});

export const WeChatBindQuery = z.object({
  code: text({ error: '验证码错误或已过期' }).trim().min(1, '验证码错误或已过期').max(64),
});

/** Query of the OAuth callbacks (api.md §13). */
export const OAuthCallbackQuery = z.object({
  code: text({ error: '无效的参数' }).trim().min(1, '无效的参数').max(512),
  state: text().max(64).optional(),
  aff: text().max(16).optional(),
});
