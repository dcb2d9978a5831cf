import type { ServiceRatioClass } from '@one-hub/contract';
import type { Usage } from '../../providers/types.js';
import type { Price } from './pricing.js';

/** What a request asked for: its `service_tier` and `speed` (Anthropic fast mode), as sent. */
export interface ServiceAsk {
  tier?: string;
  speed?: string;
}

/** The service class a request was billed in, as its log row shows it. */
export interface ServiceClass {
  /** The tier that applied (reported, else requested), when one was named. */
  tier?: string;
  /** Fast mode applied. */
  fast: boolean;
  /** The multiplier the whole cost was billed at. */
  ratio: number;
}

/** Tier names that bill at the standard price whatever the price says. */
const STANDARD = new Set(['auto', 'default', 'standard', 'standard_only']);
/** OpenAI renamed priority processing "fast": both names bill as `priority`. */
const ALIAS: Record<string, ServiceRatioClass> = { fast: 'priority' };
const TIERS: readonly ServiceRatioClass[] = ['flex', 'priority', 'scale', 'batch'];

const word = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().toLowerCase() : undefined);

/** The service fields of a caller's JSON body. */
export function serviceAsk(body: unknown): ServiceAsk {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  const b = body as Record<string, unknown>;
  return { tier: word(b.service_tier), speed: word(b.speed) };
}

function tierRatio(price: Price, tier: string | undefined): number {
  if (!tier || STANDARD.has(tier)) return 1;
  const key = ALIAS[tier] ?? (tier as ServiceRatioClass);
  return TIERS.includes(key) ? (price.service?.[key] ?? 1) : 1;
}

const fastRatio = (price: Price): number => price.service?.fast ?? 1;

/**
 * The class a finished request is billed in: the tier and speed the upstream reports in its
 * answer when it reports them, else the ones requested; the two multipliers multiply.
 */
export function serviceClass(price: Price, ask: ServiceAsk, usage: Usage): ServiceClass {
  const tier = word(usage.serviceTier) ?? ask.tier;
  const fast = (word(usage.speed) ?? ask.speed) === 'fast';
  const ratio = price.service ? tierRatio(price, tier) * (fast ? fastRatio(price) : 1) : 1;
  // One shape for every request (no spread of a conditional part): this runs on each settlement.
  return { tier, fast, ratio };
}

/**
 * The highest multiplier a request could be billed at, for its hold. A named tier may still be
 * served at the standard one; `auto` (or none) may be served at any tier (a project default).
 * Fast mode applies only when asked for.
 */
export function holdRatio(price: Price, ask: ServiceAsk): number {
  if (!price.service) return 1;
  const named = ask.tier && ask.tier !== 'auto' ? [tierRatio(price, ask.tier)] : TIERS.map((t) => tierRatio(price, t));
  const tier = Math.max(1, ...named);
  return tier * (ask.speed === 'fast' ? Math.max(1, fastRatio(price)) : 1);
}
