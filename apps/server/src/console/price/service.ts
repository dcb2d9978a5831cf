import { parseJsonOr } from '../../common/json.js';
import type { z } from 'zod';
import { UNKNOWN_OWNER, type AvailableModel, type MultiplePriceBody, type PriceBody, type PriceEntry, type PriceSyncMode, type PriceTierEntry } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { deletePrices, findPrice, insertPrice, listPrices, type PriceRow } from '../../db/repos/prices.js';
import { listModelInfo } from '../../db/repos/model-info.js';
import { ownerMap } from './owner-service.js';
import { parseModelInfo } from './model-info-service.js';
import { planPriceSync, type SyncPlan } from './sync.js';

export { seedModelOwners } from './owner-service.js';
import { listAllUserGroups } from '../../db/repos/user-groups.js';
import { DEFAULT_PRICES } from '../../relay/pipeline/accounting/price-table.js';
import { relayState } from '../../relay/state.js';
import type { PriceTier } from '../../relay/pipeline/accounting/pricing.js';
import { transact } from '../../db/retry.js';
import type { Db } from '../../db/index.js';

export function toPriceJson(row: PriceRow): PriceEntry {
  const extra = parseJsonOr<Record<string, number> | undefined>(row.extra_ratios, undefined);
  const tiers = parseJsonOr<PriceTierEntry[] | undefined>(row.tiers, undefined);
  const service = parseJsonOr<Record<string, number> | undefined>(row.service_ratios, undefined);
  return {
    model: row.model,
    type: row.type === 'times' ? 'times' : 'tokens',
    channel_type: row.channel_type,
    input: row.input,
    output: row.output,
    locked: row.locked === 1,
    ...(extra ? { extra_ratios: extra } : {}),
    ...(tiers?.length ? { tiers } : {}),
    ...(service && Object.keys(service).length ? { service_ratios: service } : {}),
  };
}

export const defaultPrices = (): PriceEntry[] =>
  DEFAULT_PRICES.map(([model, channel_type, input, output, type]) => ({ model, channel_type, input, output, type: type ?? 'tokens', locked: false }));

/** The price table, each entry with its model description when one exists. */
export async function currentPrices(ctx: AppContext): Promise<PriceEntry[]> {
  const [prices, infos] = await Promise.all([listPrices(ctx.db), listModelInfo(ctx.db)]);
  const byModel = new Map(infos.map((i) => [i.model, parseModelInfo(i)]));
  return prices.map((p) => {
    const info = byModel.get(p.model);
    return info ? { ...toPriceJson(p), model_info: info } : toPriceJson(p);
  });
}

type Body = z.infer<typeof PriceBody>;
const row = (b: Omit<Body, 'model'> & { model: string }) => ({
  model: b.model,
  type: b.type,
  channel_type: b.channel_type,
  input: b.input,
  output: b.output,
  locked: b.locked ? 1 : 0,
  extra_ratios: b.extra_ratios ? JSON.stringify(b.extra_ratios) : null,
  tiers: b.type === 'tokens' && b.tiers?.length ? JSON.stringify(b.tiers.map((t) => ({ above: t.above, input: t.input, output: t.output, ...(t.extra_ratios ? { extra_ratios: t.extra_ratios } : {}) }))) : null,
  service_ratios: b.service_ratios && Object.keys(b.service_ratios).length ? JSON.stringify(b.service_ratios) : null,
});
const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.prices, '');

export async function createPrice(ctx: AppContext, body: Body): Promise<void> {
  if (await findPrice(ctx.db, body.model)) throw apiError(409, 'price_exists');
  await insertPrice(ctx.db, row(body));
  await changed(ctx);
}

export async function updatePrice(ctx: AppContext, model: string, body: Body): Promise<void> {
  if (!(await findPrice(ctx.db, model))) throw apiError(404, 'price_not_found');
  if (body.model !== model && (await findPrice(ctx.db, body.model))) throw apiError(409, 'price_duplicate');
  await transact(ctx.db, async (trx) => {
    await deletePrices(trx, [model]);
    await insertPrice(trx, row(body));
  });
  await changed(ctx);
}

export async function deletePrice(ctx: AppContext, model: string): Promise<void> {
  if (!(await deletePrices(ctx.db, [model]))) throw apiError(404, 'price_not_found');
  await changed(ctx);
}

/** Batch edit: models only in `original_models` go, the rest get the shared price. */
export async function savePrices(ctx: AppContext, body: z.infer<typeof MultiplePriceBody>): Promise<void> {
  const keep = new Set(body.models);
  await transact(ctx.db, async (trx) => {
    await deletePrices(trx, [...body.original_models.filter((m) => !keep.has(m)), ...body.models]);
    for (const model of body.models) await insertPrice(trx, row({ ...body.price, model }));
  });
  await changed(ctx);
}

export async function removePrices(ctx: AppContext, models: string[]): Promise<void> {
  await deletePrices(ctx.db, models);
  await changed(ctx);
}

/** Every priced model plus every model declared on an enabled channel. */
export async function modelList(ctx: AppContext): Promise<string[]> {
  const names = new Set((await listPrices(ctx.db)).map((p) => p.model));
  for (const c of relayState(ctx).selector.index.byId.values()) {
    for (const m of (c.row.models ?? '').split(',')) if (m.trim()) names.add(m.trim());
  }
  return [...names].sort();
}

/** Models reachable from public enabled groups (and the caller's own group), with owner and price. */
export async function availableModels(ctx: AppContext, ownGroup?: string): Promise<Record<string, AvailableModel>> {
  const state = relayState(ctx);
  const owners = await ownerMap(ctx);
  const groups = (await listAllUserGroups(ctx.db)).filter((g) => g.enable !== 0 && (g.public === 1 || g.symbol === ownGroup));
  const result: Record<string, AvailableModel> = {};
  for (const g of groups) {
    for (const model of state.selector.index.models(g.symbol)) {
      const found = state.prices.find(model);
      const price: PriceEntry = found
        ? { model, type: found.type, channel_type: found.channelType, input: found.input, output: found.output, locked: false, ...(Object.keys(found.extra).length ? { extra_ratios: found.extra as Record<string, number> } : {}), ...tierEntries(found.tiers), ...(found.service && Object.keys(found.service).length ? { service_ratios: found.service as Record<string, number> } : {}) }
        : { model, type: 'tokens', channel_type: 0, input: 30, output: 30, locked: false };
      result[model] ??= { groups: [], owned_by: owners[String(price.channel_type)]?.name ?? UNKNOWN_OWNER, price, ...(found ? {} : { unpriced: true }) };
      result[model].groups.push(g.symbol);
    }
  }
  return result;
}

const tierEntries = (tiers: PriceTier[] | undefined) =>
  tiers?.length ? { tiers: tiers.map((t) => ({ above: t.above, input: t.input, output: t.output, ...(Object.keys(t.extra).length ? { extra_ratios: t.extra as Record<string, number> } : {}) })) } : {};

/** Applies a list of prices from a price service per the sync mode; locked prices are never replaced. */
export async function syncPrices(ctx: AppContext, incoming: Body[], mode: PriceSyncMode): Promise<void> {
  const stored = (await listPrices(ctx.db)).map((p) => ({ model: p.model, locked: p.locked === 1 }));
  await applyPricePlan(ctx, planPriceSync(stored, incoming, mode));
}

/** Deletes and inserts what a sync plan says, in one transaction (after `check`, which may refuse), and tells every node. */
export async function applyPricePlan(ctx: AppContext, plan: SyncPlan<Body>, check?: (trx: Db) => Promise<void>): Promise<void> {
  await transact(ctx.db, async (trx) => {
    await check?.(trx);
    await deletePrices(trx, plan.remove);
    for (const price of plan.insert) await insertPrice(trx, row(price));
  });
  await changed(ctx);
}
