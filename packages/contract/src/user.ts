import { z } from 'zod';
import { text } from './format/text.js';

/** User object of api.md §15.1 as answered by the API (password always blank). */
export interface User {
  id: number;
  username: string;
  password: '';
  display_name: string;
  role: number;
  status: number;
  email: string;
  avatar_url: string;
  oidc_id: string;
  github_id: string;
  github_id_new: number;
  wechat_id: string;
  telegram_id: number;
  lark_id: string;
  linuxdo_id: string;
  verification_code: '';
  access_token: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  last_login_time: number;
  last_login_ip: string;
  created_time: number;
}

const trimmed = (max: number) => text().trim().max(max);
export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

export const Username = text()
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(USERNAME_MAX, `username must be at most ${USERNAME_MAX} characters`)
  .regex(/^[^\s@]+$/, 'username may not contain spaces or @');
export const Password = text()
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);

export const LoginBody = z.object({
  username: text().trim().min(1, '无效的参数').max(100),
  password: text().min(1, '无效的参数').max(100),
});

export const RegisterBody = z.object({
  username: Username,
  password: Password,
  email: text().trim().max(50).optional().default(''),
  verification_code: text().trim().max(64).optional().default(''),
  aff_code: text().trim().max(32).optional().default(''),
});

/**
 * PUT /api/user/self: only display name and password change; other fields are ignored. A new
 * `password` needs the current one in `original_password` (or a fresh step-up).
 */
export const UpdateSelfBody = z.looseObject({
  display_name: trimmed(20).optional().default(''),
  password: z.union([z.literal(''), Password]).optional().default(''),
  original_password: z.string().max(100).optional().default(''),
});

export const CreateUserBody = z.object({
  username: Username,
  password: Password,
  display_name: trimmed(20).optional().default(''),
  role: z.coerce.number().int().optional().default(1),
});

/**
 * PUT /api/user/ (admin): every field optional except id; quota is changed only by the quota route.
 * `username` is checked against the username rules only when it changes, so the console can send
 * back the long names OAuth sign-ups may have (api.md §31.7).
 */
export const UpdateUserBody = z.looseObject({
  id: z.coerce.number().int().positive(),
  username: text().trim().max(100).optional(),
  password: z.union([z.literal(''), Password]).optional().default(''),
  display_name: trimmed(20).optional(),
  email: z.union([z.literal(''), z.email().max(50)]).optional(),
  group: text().trim().max(32).optional(),
  role: z.coerce.number().int().optional(),
});

export const MANAGE_ACTIONS = ['disable', 'enable', 'delete', 'promote', 'demote', 'set_reliable'] as const;
export const ManageUserBody = z.object({
  username: text().trim().min(1, 'username is required'),
  action: z.enum(MANAGE_ACTIONS),
});

export const ChangeQuotaBody = z.object({
  quota: z.coerce
    .number()
    .int()
    .refine((q) => q !== 0, '不能为0'),
  remark: text().trim().max(200).optional().default(''),
});

export const EmailQuery = z.object({
  email: z.email('无效的参数').max(50),
  turnstile: text().optional(),
});

export const ResetPasswordBody = z.object({
  email: z.email('无效的参数'),
  token: text().min(1, '无效的参数').max(64),
});

export const TopupBody = z.object({ key: text().trim().max(64) });
