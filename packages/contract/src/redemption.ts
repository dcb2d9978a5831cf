import { z } from 'zod';
import { text } from './format/text.js';

export interface Redemption {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** Who redeemed it (0 while unused); the original records only the creator in user_id. */
  used_user_id: number;
  /** A plan code grants this subscription plan instead of quota (0: a quota code). */
  plan_id: number;
  count: 0;
}

export const MAX_REDEMPTION_BATCH = 100;

export const CreateRedemptionBody = z.object({
  name: text()
    .trim()
    .min(1, '兑换码名称长度必须在1-20之间')
    .refine((n) => new TextEncoder().encode(n).length <= 20, '兑换码名称长度必须在1-20之间'),
  quota: z.coerce.number().int().min(0, 'quota must not be negative'),
  /** Set: a "plan" code that grants this plan (quota is then ignored). */
  plan_id: z.coerce.number().int().min(0).default(0),
  count: z.coerce
    .number()
    .int()
    .min(1, '兑换码个数必须大于0')
    .max(MAX_REDEMPTION_BATCH, `一次兑换码批量生成的个数不能大于 ${MAX_REDEMPTION_BATCH}`),
});

export const UpdateRedemptionBody = z.object({
  id: z.coerce.number().int().positive(),
  name: text().trim().min(1).max(20).optional(),
  quota: z.coerce.number().int().min(0).optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
});
