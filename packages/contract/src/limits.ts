import { z } from 'zod';
import { text } from './format/text.js';

/**
 * Request limits of a token, a user (set by an admin) or a model within a group (per user).
 * 0 means no limit. Spending caps are in quota units and count settled cost (UTC day / month).
 */
export interface RequestLimits {
  rpm: number;
  tpm: number;
  max_inflight: number;
  daily_quota: number;
  monthly_quota: number;
}

const count = z.coerce.number().int('must be a whole number').min(0, 'must not be negative').max(1e12);

export const RequestLimitsSchema = z.object({
  rpm: count.default(0),
  tpm: count.default(0),
  max_inflight: count.max(100_000).default(0),
  daily_quota: count.default(0),
  monthly_quota: count.default(0),
});

export const NO_LIMITS: RequestLimits = { rpm: 0, tpm: 0, max_inflight: 0, daily_quota: 0, monthly_quota: 0 };

/** True when any limit is set. */
export const hasLimits = (l: RequestLimits | undefined): l is RequestLimits =>
  Boolean(l && (l.rpm || l.tpm || l.max_inflight || l.daily_quota || l.monthly_quota));

/** A group's limits per model name (each applies to every user of the group separately). */
export const ModelLimitsSchema = z.record(text().trim().min(1).max(255), RequestLimitsSchema).refine((m) => Object.keys(m).length <= 500, 'at most 500 models');
export type ModelLimits = Record<string, RequestLimits>;

/** Parses stored limits JSON; undefined when absent, unreadable or all zero. */
export function readLimits(text: string | null | undefined): RequestLimits | undefined {
  if (!text) return undefined;
  try {
    const parsed = RequestLimitsSchema.safeParse(JSON.parse(text));
    return parsed.success && hasLimits(parsed.data) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a group's stored per-model limits; models without any limit are left out. */
export function readModelLimits(text: string | null | undefined): ModelLimits | undefined {
  if (!text) return undefined;
  try {
    const parsed = ModelLimitsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    const kept = Object.entries(parsed.data).filter(([, l]) => hasLimits(l));
    return kept.length ? Object.fromEntries(kept) : undefined;
  } catch {
    return undefined;
  }
}
