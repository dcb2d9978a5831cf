import { z } from 'zod';
import { text } from './format/text.js';

export interface UserGroup {
  id: number;
  symbol: string;
  name: string;
  ratio: number;
  api_rate: number;
  public: boolean;
  promotion: boolean;
  min: number;
  max: number;
  enable: boolean;
}

const flag = z.union([z.boolean(), z.number().int().min(0).max(1)]).transform((v) => Boolean(v));

export const UserGroupBody = z.object({
  symbol: text()
    .trim()
    .min(1, 'symbol is required')
    .max(50)
    .regex(/^[A-Za-z0-9_-]+$/, 'symbol must be English letters, digits, _ or -'),
  name: text().trim().min(1, 'name is required').max(50),
  ratio: z.coerce.number().min(0).max(1000).optional(),
  api_rate: z.coerce.number().int().min(0).max(1_000_000).optional(),
  public: flag.optional().default(false),
  promotion: flag.optional().default(false),
  min: z.coerce.number().int().min(0).optional().default(0),
  max: z.coerce.number().int().min(0).optional().default(0),
  enable: flag.optional().default(true),
});

export const UpdateUserGroupBody = UserGroupBody.omit({ symbol: true, enable: true }).extend({
  id: z.coerce.number().int().positive(),
  ratio: z.coerce.number().min(0).max(1000),
  api_rate: z.coerce.number().int().min(0).max(1_000_000),
});

export const UserGroupListQuery = z.object({
  Name: text().max(50).optional(),
  enable: z.enum(['true', 'false']).optional(),
});
