import { z } from 'zod';
import { text } from './format/text.js';
import { ModelName } from './channel.js';

export interface PriceEntry {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios?: Record<string, number>;
  /** Long-context tiers, ascending by `above`; the base price covers prompts up to the first. */
  tiers?: PriceTierEntry[];
  /** Price multipliers by service tier (`flex`, `priority`, …) and for fast mode (`fast`); 1 where unset. */
  service_ratios?: Record<string, number>;
  model_info?: ModelInfoParsed;
}

/** A token price for prompts of more than `above` tokens (input, output and cache ratios of its own). */
export interface PriceTierEntry {
  above: number;
  input: number;
  output: number;
  extra_ratios?: Record<string, number>;
}

/** Usage classes a price may re-price relative to plain input or output tokens (api.md §1.22). */
export const EXTRA_RATIO_CLASSES = [
  'cached_tokens',
  'cached_write_tokens',
  'cached_write_1h_tokens',
  'cached_read_tokens',
  'input_audio_tokens',
  'output_audio_tokens',
  'reasoning_tokens',
  'input_text_tokens',
  'output_text_tokens',
  'input_image_tokens',
  'output_image_tokens',
] as const;

/** A price's (or a tier's) class → ratio map; an unknown class or a negative ratio is refused. */
export const ExtraRatios = z
  .partialRecord(
    z.enum(EXTRA_RATIO_CLASSES),
    z.number({ error: 'extra_ratios: a ratio must be a number' }).min(0, 'extra_ratios: a ratio must not be negative'),
  )
  .nullable()
  .optional();

/**
 * Service classes a price may multiply (the whole cost: input, output and cache classes):
 * OpenAI `service_tier` flex / priority (alias `fast`) / scale, Anthropic `usage.service_tier`
 * priority / batch, and `fast`: Anthropic fast mode (`speed: "fast"`). Unset means ×1.
 */
export const SERVICE_RATIO_CLASSES = ['flex', 'priority', 'scale', 'batch', 'fast'] as const;
export type ServiceRatioClass = (typeof SERVICE_RATIO_CLASSES)[number];

/** A price's service class → multiplier map; an unknown class or a negative multiplier is refused. */
export const ServiceRatios = z
  .partialRecord(
    z.enum(SERVICE_RATIO_CLASSES, { error: `service_ratios: the classes are ${SERVICE_RATIO_CLASSES.join(', ')}` }),
    z.number({ error: 'service_ratios: a multiplier must be a number' }).min(0, 'service_ratios: a multiplier must not be negative').max(100, 'service_ratios: a multiplier must be at most 100'),
  )
  .nullable()
  .optional();

/** A tier's own input, output and usage-class ratios; a class it does not set follows the base price's. */
export const PriceTier = z.object({
  above: z.coerce.number().int('above must be a whole number of tokens').positive('above must be more than 0 tokens'),
  input: z.coerce.number().min(0, 'input must not be negative'),
  output: z.coerce.number().min(0, 'output must not be negative'),
  extra_ratios: ExtraRatios,
});

/** Tiers ascending by `above`, each threshold once (null or [] = no tiers). */
export const PriceTiers = z
  .array(PriceTier)
  .max(8, 'at most 8 tiers')
  .refine((t) => t.every((x, i) => i === 0 || x.above > t[i - 1].above), 'tiers must be in ascending order of above, each threshold once')
  .nullable()
  .optional();

/** The tier label a log row shows: `≤ 200000` for the base price, `> 200000` for a tier. */
export function tierLabel(tiers: readonly { above: number }[] | undefined, index: number): string {
  if (!tiers?.length) return '';
  return index === 0 ? `≤ ${tiers[0].above}` : `> ${tiers[index - 1].above}`;
}

export const PriceBody = z.object({
  model: ModelName,
  type: z.enum(['tokens', 'times'], { error: 'type must be tokens or times' }),
  channel_type: z.coerce.number().int().min(0).default(0),
  input: z.coerce.number().min(0, 'input must not be negative').default(0),
  output: z.coerce.number().min(0, 'output must not be negative').default(0),
  locked: z.boolean().default(false),
  extra_ratios: ExtraRatios,
  tiers: PriceTiers,
  service_ratios: ServiceRatios,
});

export const MultiplePriceBody = z.object({
  original_models: z.array(text()).default([]),
  models: z.array(ModelName).min(1, 'models is required'),
  price: PriceBody.omit({ model: true }).extend({ model: text().min(1) }),
});

export const DeletePricesBody = z.object({ models: z.array(text()).min(1, 'models is required') });

export interface ModelOwner {
  id: number;
  name: string;
  icon: string;
}

export const ModelOwnerBody = z.object({
  id: z.coerce.number().int().positive(),
  name: text().trim().min(1).max(100),
  icon: text().trim().max(500).default(''),
});

/** GET /api/available_model: model → groups that reach it, owner label and price. */
export interface AvailableModel {
  groups: string[];
  owned_by: string;
  price: PriceEntry;
  /** No price record: requests are billed at the default price shown (administrators are told to set one). */
  unpriced?: boolean;
}

/** POST /api/prices/sync?updateMode=: how incoming prices meet the stored ones. */
export const PriceSyncQuery = z.object({
  updateMode: z.enum(['system', 'add', 'update', 'overwrite'], { error: 'updateMode must be system, add, update or overwrite' }).default('system'),
});
export type PriceSyncMode = z.infer<typeof PriceSyncQuery>['updateMode'];
export const PriceSyncBody = z.array(PriceBody).min(1, 'prices is required');

/** POST /api/prices/sync/preview: the price list URL (default the configured service) and the mode. */
export const PriceSyncRemoteBody = z.object({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).max(2000).optional(),
  updateMode: z.enum(['add', 'update', 'overwrite'], { error: 'updateMode must be add, update or overwrite' }),
});

/** The fields a price sync compares (the price as stored, without its model info). */
export type PriceValues = Omit<PriceEntry, 'model_info' | 'locked'>;

/**
 * What a price sync changes: models added, models whose price changes (old and new values), models
 * removed; `digest` (SHA-256 of the entries) identifies exactly this list for `apply`.
 */
export interface PriceSyncDiff {
  url: string;
  mode: 'add' | 'update' | 'overwrite';
  /** Prices in the fetched list. */
  fetched: number;
  added: PriceValues[];
  changed: Array<{ model: string; before: PriceValues; after: PriceValues }>;
  removed: PriceValues[];
  digest: string;
}

/** A price the sync writes: validated like any price. */
const SyncValues = PriceBody.omit({ locked: true });
/** A price as it was stored (rows older than today's checks included): only compared, never written. */
const StoredValues = SyncValues.extend({ model: text().max(191), extra_ratios: z.record(text(), z.number()).nullable().optional(), tiers: z.array(PriceTier.extend({ extra_ratios: z.record(text(), z.number()).nullable().optional() })).nullable().optional(), service_ratios: z.record(text(), z.number()).nullable().optional() });

/** POST /api/prices/sync/apply: the preview's answer sent back unchanged; the server applies exactly these entries. */
export const PriceSyncApplyBody = z.object({
  url: text().max(2000),
  mode: z.enum(['add', 'update', 'overwrite'], { error: 'mode must be add, update or overwrite' }),
  fetched: z.number().int().min(0),
  added: z.array(SyncValues).max(100_000),
  changed: z.array(z.object({ model: text(), before: StoredValues, after: SyncValues })).max(100_000),
  removed: z.array(StoredValues).max(100_000),
  digest: text().regex(/^[0-9a-f]{64}$/, 'digest is required: send the preview answer unchanged'),
});

const textList = z.array(text().trim().min(1).max(200)).max(100).default([]);

/** Model info row as the API answers it: list columns are JSON-array text (api.md §21.3). */
export interface ModelInfo {
  id: number;
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  input_modalities: string;
  output_modalities: string;
  tags: string;
  support_url: string;
  created_at: number;
  updated_at: number;
}

/** The parsed form embedded in price answers. */
export interface ModelInfoParsed {
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  input_modalities: string[];
  output_modalities: string[];
  tags: string[];
  support_url: string[];
  created_at: number;
  updated_at: number;
}

/** POST/PUT /api/model_info/: lists may be sent as arrays or as the JSON text the rows hold. */
const listInput = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!t) return [];
  try {
    return JSON.parse(t);
  } catch {
    return [t];
  }
}, textList);

export const ModelInfoBody = z.object({
  id: z.coerce.number().int().positive().optional(),
  model: text().trim().min(1, 'model is required').max(191),
  name: text().trim().max(191).default(''),
  description: text().max(10_000).default(''),
  context_length: z.coerce.number().int().min(0).default(0),
  max_tokens: z.coerce.number().int().min(0).default(0),
  input_modalities: listInput,
  output_modalities: listInput,
  tags: listInput,
  support_url: listInput,
});
