import type { AppContext } from '../../../app-context.js';
import { DEFAULT_PRICES } from './price-table.js';

/** Fills an empty price table with the built-in prices, so common models bill out of the box. */
export async function seedDefaultPrices(ctx: AppContext): Promise<void> {
  const existing = await ctx.db.selectFrom('prices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  if (Number(existing?.n ?? 0) > 0) return;
  await ctx.db
    .insertInto('prices')
    .values(DEFAULT_PRICES.map(([model, channel_type, input, output, type]) => ({ model, channel_type, input, output, type: type ?? 'tokens' })))
    .execute();
}
