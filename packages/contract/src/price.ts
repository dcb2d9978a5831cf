import { z } from 'zod';
import { ModelName } from './channel.js';

export interface PriceEntry {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios?: Record<string, number>;
}

export const PriceBody = z.object({
  model: ModelName,
  type: z.enum(['tokens', 'times'], { error: 'type must be tokens or times' }),
  channel_type: z.coerce.number().int().min(0).default(0),
  input: z.coerce.number().min(0, 'input must not be negative').default(0),
  output: z.coerce.number().min(0, 'output must not be negative').default(0),
  locked: z.boolean().default(false),
  extra_ratios: z.record(z.string(), z.number().min(0)).nullable().optional(),
});

export const MultiplePriceBody = z.object({
  original_models: z.array(z.string()).default([]),
  models: z.array(ModelName).min(1, 'models is required'),
  price: PriceBody.omit({ model: true }).extend({ model: z.string().min(1) }),
});

export const DeletePricesBody = z.object({ models: z.array(z.string()).min(1, 'models is required') });

export interface ModelOwner {
  id: number;
  name: string;
  icon: string;
}

export const ModelOwnerBody = z.object({
  id: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(100),
  icon: z.string().trim().max(500).default(''),
});

/** GET /api/available_model: model → groups that reach it, owner label and price. */
export interface AvailableModel {
  groups: string[];
  owned_by: string;
  price: PriceEntry;
}
