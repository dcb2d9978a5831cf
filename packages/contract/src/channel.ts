import { z } from 'zod';
import { text } from './format/text.js';
import { isHttpUrl } from './format/net.js';

export interface Channel {
  id: number;
  type: number;
  key: string;
  status: number;
  name: string;
  weight: number | null;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string | null;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  tag: string;
  used_quota: number;
  model_mapping: string | null;
  model_headers: string | null;
  custom_parameter: string | null;
  priority: number | null;
  proxy: string | null;
  test_model: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  disabled_stream?: string[];
  plugin: Record<string, Record<string, unknown>> | null;
  disabled_reason?: string | null;
}

/** POST /api/channel/:id/key: the stored key, on an explicit reveal (step-up, audited). The detail leaves it blank. */
export interface ChannelKey {
  key: string;
}

const jsonObjectText = (what: string) =>
  text()
    .trim()
    .refine((t) => {
      if (!t) return true;
      try {
        const v = JSON.parse(t);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      } catch {
        return false;
      }
    }, `${what} must be a JSON object`);

/** Model wildcard: `*` only as the last character, after at least one other character. */
export const ModelName = text()
  .trim()
  .min(1)
  .refine((m) => !m.includes('*') || (m.indexOf('*') === m.length - 1 && m.length > 1), {
    message: 'a wildcard * may only end a model name (gpt-4* is valid, *gpt-4 is not)',
  });

/** Channel fields without defaults: the create schema adds defaults, the update schema leaves absent fields alone. */
/** Empty means the channel type's default address. */
const BaseUrl = text().trim().max(500).refine((u) => u === '' || isHttpUrl(u), 'base_url must be an http(s) URL');

const channelFields = {
  type: z.coerce.number().int().min(0),
  key: text().trim().min(1, 'key cannot be empty'),
  name: text().trim().min(1, 'name cannot be empty').max(191),
  status: z.coerce.number().int().min(1).max(3),
  weight: z.coerce.number().int().min(1, 'weight must be at least 1'),
  priority: z.coerce.number().int().min(0, 'priority must not be negative'),
  base_url: BaseUrl,
  other: text().trim().max(2000),
  models: text()
    .trim()
    .min(1, 'models cannot be empty')
    .refine((m) => m.split(',').every((x) => ModelName.safeParse(x.trim()).success), {
      message: 'a wildcard * may only end a model name (gpt-4* is valid, *gpt-4 is not)',
    }),
  group: text().trim().min(1, 'group cannot be empty').max(191),
  tag: text().trim().max(64),
  model_mapping: jsonObjectText('model_mapping'),
  model_headers: jsonObjectText('model_headers'),
  custom_parameter: jsonObjectText('custom_parameter'),
  proxy: text()
    .trim()
    .max(255)
    .refine((p) => !p || /^(https?|socks5h?):\/\//.test(p), 'proxy must be an http(s):// or socks5:// URL'),
  test_model: text().trim().max(100),
  only_chat: z.boolean(),
  pre_cost: z.coerce.number().int().min(1).max(3),
  compatible_response: z.boolean(),
  allow_extra_body: z.boolean(),
  disabled_stream: z.array(text()).nullable(),
  plugin: z.record(text(), z.record(text(), z.unknown())).nullable(),
};

export const ChannelBody = z.object({
  ...channelFields,
  status: channelFields.status.default(1),
  weight: channelFields.weight.default(1),
  priority: channelFields.priority.default(0),
  base_url: channelFields.base_url.default(''),
  other: channelFields.other.default(''),
  group: channelFields.group.default('default'),
  tag: channelFields.tag.default(''),
  model_mapping: channelFields.model_mapping.default(''),
  model_headers: channelFields.model_headers.default(''),
  custom_parameter: channelFields.custom_parameter.default(''),
  proxy: channelFields.proxy.default(''),
  test_model: channelFields.test_model.default(''),
  only_chat: channelFields.only_chat.default(false),
  pre_cost: channelFields.pre_cost.default(1),
  compatible_response: channelFields.compatible_response.default(false),
  allow_extra_body: channelFields.allow_extra_body.default(false),
  disabled_stream: channelFields.disabled_stream.default(null),
  plugin: channelFields.plugin.default(null),
});

/** PUT /api/channel/: only the fields sent change (absent fields are never reset). */
export const UpdateChannelBody = z.object(channelFields).partial().extend({ id: z.coerce.number().int().positive() });

export const ChannelListQuery = z.object({
  type: z.coerce.number().int().optional(),
  status: z.coerce.number().int().optional(),
  name: text().max(191).optional(),
  group: text().max(64).optional(),
  models: text().max(191).optional(),
  tag: text().max(64).optional(),
  test_model: text().max(100).optional(),
  other: text().max(2000).optional(),
  key: text().max(4096).optional(),
  /** 0: untagged channels plus one row per tag; 1: untagged only; 2: one row per tag only. */
  filter_tag: z.coerce.number().int().min(0).max(2).default(0),
});

export const BatchIdsBody = z.object({
  ids: z.array(z.coerce.number().int().positive()).min(1, 'ids cannot be empty').max(1000),
  value: text().trim().min(1, 'value cannot be empty'),
});

/** POST /api/channel/provider_models_list: the channel form's current values; an empty key with an id uses the stored key. */
export const ProviderModelsBody = z.object({
  id: z.coerce.number().int().positive().optional(),
  type: z.coerce.number().int().min(0),
  key: text().optional(),
  base_url: BaseUrl.optional(),
  other: text().trim().max(2000).optional(),
  proxy: channelFields.proxy.optional(),
});

/** GET /api/channel/test/:id query. */
export const ChannelTestQuery = z.object({ model: text().trim().max(100).optional() });

/** POST /api/sse/channel/check: probe these models (comma list) on one channel. */
export const ChannelCheckRequest = z.object({
  id: z.coerce.number({ error: 'id must be a channel id' }).int('id must be a channel id').min(1, 'id must be a channel id'),
  models: text({ error: 'models is required' })
    .transform((s) => [...new Set(s.split(',').map((m) => m.trim()).filter(Boolean))])
    .refine((list) => list.length > 0 && list.length <= 50, 'models must list 1 to 50 model names'),
});
