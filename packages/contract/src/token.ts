import { z } from 'zod';
import { text } from './format/text.js';
import { isIpOrCidr } from './format/net.js';
import { RequestLimitsSchema, type RequestLimits } from './limits.js';
import { McpToolPatterns } from './mcp.js';

export interface TokenSetting {
  heartbeat: { enabled: boolean; timeout_seconds: number };
  limits: {
    limit_model_setting: { enabled: boolean; models: string[] };
    limits_ip_setting: { enabled: boolean; whitelist: string[] };
    /** RPM, TPM, in-flight and spending caps (0 = none); absent on tokens saved before them. */
    request_limits?: RequestLimits;
  };
  billing_tag?: string;
}

export interface Token {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  group: string;
  backup_group: string;
  setting: TokenSetting;
  /** MCP allow list: comma-separated `server/tool` patterns ('' = every tool the group may use); absent before the MCP gateway. */
  mcp_tools?: string;
  owner_name?: string;
}

const IpOrCidr = text()
  .trim()
  .refine(isIpOrCidr, { error: (issue) => `${String(issue.input)} is not an IP address or CIDR range` });

/** The token setting; `entry` checks each IP whitelist entry (strict when saving, any text when reading stored rows). */
const tokenSettingSchema = (entry: z.ZodType<string>) => z
  .object({
    heartbeat: z
      .object({ enabled: z.boolean().default(false), timeout_seconds: z.coerce.number().int().default(0) })
      .default({ enabled: false, timeout_seconds: 0 })
      .refine((h) => !h.enabled || (h.timeout_seconds >= 30 && h.timeout_seconds <= 90), {
        message: 'heartbeat timeout seconds must be between 30 and 90',
      }),
    limits: z
      .object({
        limit_model_setting: z
          .object({ enabled: z.boolean().default(false), models: z.array(text().trim().min(1)).default([]) })
          .default({ enabled: false, models: [] }),
        limits_ip_setting: z
          .object({ enabled: z.boolean().default(false), whitelist: z.array(entry).default([]) })
          .default({ enabled: false, whitelist: [] }),
        request_limits: RequestLimitsSchema.optional(),
      })
      .default({ limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: false, whitelist: [] } }),
    billing_tag: text().max(64).optional(),
  })
  .default({
    heartbeat: { enabled: false, timeout_seconds: 0 },
    limits: { limit_model_setting: { enabled: false, models: [] }, limits_ip_setting: { enabled: false, whitelist: [] } },
  });

export const TokenSettingSchema = tokenSettingSchema(IpOrCidr);

/**
 * Stored settings, read leniently: a row saved before entries were checked keeps its other
 * entries and limits (the relay skips the entries it cannot read) instead of losing them all.
 */
export const StoredTokenSettingSchema = tokenSettingSchema(text());

const tokenFields = {
  name: text()
    .trim()
    .refine((n) => new TextEncoder().encode(n).length <= 30, '令牌名称过长'),
  expired_time: z.coerce
    .number()
    .int()
    .transform((t) => (t === 0 ? -1 : t)),
  remain_quota: z.coerce.number().int().min(0, 'remain_quota must not be negative'),
  unlimited_quota: z.boolean(),
  group: text().trim().max(32),
  backup_group: text().trim().max(32),
  setting: TokenSettingSchema,
  /** Absent: '' on create, the stored value on update. */
  mcp_tools: McpToolPatterns.optional(),
};

export const TokenBody = z.object({
  ...tokenFields,
  expired_time: tokenFields.expired_time.default(-1),
  remain_quota: tokenFields.remain_quota.default(0),
  unlimited_quota: tokenFields.unlimited_quota.default(false),
  group: tokenFields.group.default(''),
  backup_group: tokenFields.backup_group.default(''),
});

/** PUT /api/token/: absent fields keep their stored values. */
export const UpdateTokenBody = z
  .object({ ...tokenFields, setting: TokenSettingSchema.unwrap() })
  .partial()
  .extend({
    id: z.coerce.number().int().positive(),
    status: z.coerce.number().int().min(1).max(4).optional(),
    user_id: z.coerce.number().int().optional(),
  });

export const TokenAdminSearchQuery = z.object({
  user_id: z.coerce.number().int().optional(),
  token_id: z.coerce.number().int().optional(),
});
