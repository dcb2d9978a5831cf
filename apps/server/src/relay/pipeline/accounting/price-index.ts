import { parseJsonOr } from '../../../common/json.js';
import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { FALLBACK_PRICE } from './price-table.js';
import type { Price, PriceTier } from './pricing.js';

/** The stored tiers as the pricing code reads them; absent when there are none. */
export function parseTiers(text: string | null): PriceTier[] | undefined {
  const raw = parseJsonOr<Array<{ above: number; input: number; output: number; extra_ratios?: Price['extra'] | null }>>(text, []);
  if (!Array.isArray(raw) || !raw.length) return undefined;
  return raw.map((t) => ({ above: Number(t.above), input: Number(t.input), output: Number(t.output), extra: t.extra_ratios ?? {} })).sort((a, b) => a.above - b.above);
}

/** Prices in memory: exact names first, then the longest matching `prefix*`, then the fallback. */
export class PriceIndex {
  private exact = new Map<string, Price & { channelType: number }>();
  private wildcards: Array<{ prefix: string; price: Price & { channelType: number } }> = [];

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.prices, () => this.load());
  }

  async load(): Promise<void> {
    const rows = await this.ctx.db.selectFrom('prices').selectAll().execute();
    const exact = new Map<string, Price & { channelType: number }>();
    const wildcards: Array<{ prefix: string; price: Price & { channelType: number } }> = [];
    for (const row of rows) {
      const extra = parseJsonOr<Price['extra']>(row.extra_ratios, {});
      const tiers = parseTiers(row.tiers);
      const service = parseJsonOr<Price['service'] | null>(row.service_ratios, null);
      const price = {
        type: row.type === 'times' ? ('times' as const) : ('tokens' as const),
        input: row.input,
        output: row.output,
        extra,
        channelType: row.channel_type,
        ...(tiers ? { tiers } : {}),
        ...(service && typeof service === 'object' ? { service } : {}),
      };
      if (row.model.endsWith('*')) wildcards.push({ prefix: row.model.slice(0, -1), price });
      else exact.set(row.model, price);
    }
    wildcards.sort((a, b) => b.prefix.length - a.prefix.length);
    this.exact = exact;
    this.wildcards = wildcards;
  }

  find(model: string): (Price & { channelType: number }) | undefined {
    return this.exact.get(model) ?? this.wildcards.find((w) => model.startsWith(w.prefix))?.price;
  }

  priceOf(model: string): Price {
    return this.find(model) ?? { ...FALLBACK_PRICE, extra: {} };
  }
}
