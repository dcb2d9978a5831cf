import { parseJsonOr } from '../../common/json.js';
import type { z } from 'zod';
import type { AvailableModel, MultiplePriceBody, PriceBody, PriceEntry } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, notFound } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { deletePrices, findPrice, insertPrice, listModelOwners, listPrices, upsertModelOwner, type PriceRow } from '../../db/repos/prices.js';
import { listAllUserGroups } from '../../db/repos/user-groups.js';
import { DEFAULT_PRICES } from '../../relay/pipeline/price-table.js';
import { relayState } from '../../relay/state.js';

export function toPriceJson(row: PriceRow): PriceEntry {
  const extra = parseJsonOr<Record<string, number> | undefined>(row.extra_ratios, undefined);
  return {
    model: row.model,
    type: row.type === 'times' ? 'times' : 'tokens',
    channel_type: row.channel_type,
    input: row.input,
    output: row.output,
    locked: row.locked === 1,
    ...(extra ? { extra_ratios: extra } : {}),
  };
}

export const defaultPrices = (): PriceEntry[] =>
  DEFAULT_PRICES.map(([model, channel_type, input, output, type]) => ({ model, channel_type, input, output, type: type ?? 'tokens', locked: false }));

export const currentPrices = async (ctx: AppContext) => (await listPrices(ctx.db)).map(toPriceJson);

type Body = z.infer<typeof PriceBody>;
const row = (b: Omit<Body, 'model'> & { model: string }) => ({
  model: b.model,
  type: b.type,
  channel_type: b.channel_type,
  input: b.input,
  output: b.output,
  locked: b.locked ? 1 : 0,
  extra_ratios: b.extra_ratios ? JSON.stringify(b.extra_ratios) : null,
});
const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.prices, '');

export async function createPrice(ctx: AppContext, body: Body): Promise<void> {
  if (await findPrice(ctx.db, body.model)) throw new HubError(409, 'model already exists');
  await insertPrice(ctx.db, row(body));
  await changed(ctx);
}

export async function updatePrice(ctx: AppContext, model: string, body: Body): Promise<void> {
  if (!(await findPrice(ctx.db, model))) throw notFound('model not found');
  if (body.model !== model && (await findPrice(ctx.db, body.model))) throw new HubError(409, 'model names cannot be duplicated');
  await ctx.db.transaction().execute(async (trx) => {
    await deletePrices(trx, [model]);
    await insertPrice(trx, row(body));
  });
  await changed(ctx);
}

export async function deletePrice(ctx: AppContext, model: string): Promise<void> {
  if (!(await deletePrices(ctx.db, [model]))) throw notFound('model not found');
  await changed(ctx);
}

/** Batch edit: models only in `original_models` go, the rest get the shared price. */
export async function savePrices(ctx: AppContext, body: z.infer<typeof MultiplePriceBody>): Promise<void> {
  const keep = new Set(body.models);
  await ctx.db.transaction().execute(async (trx) => {
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

export async function ownerMap(ctx: AppContext): Promise<Record<string, { id: number; name: string; icon: string }>> {
  return Object.fromEntries((await listModelOwners(ctx.db)).map((o) => [String(o.id), o]));
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
        ? { model, type: found.type, channel_type: found.channelType, input: found.input, output: found.output, locked: false }
        : { model, type: 'tokens', channel_type: 0, input: 30, output: 30, locked: false };
      result[model] ??= { groups: [], owned_by: owners[String(price.channel_type)]?.name ?? '未知', price };
      result[model].groups.push(g.symbol);
    }
  }
  return result;
}

const OWNERS: Array<[number, string]> = [
  [1, 'OpenAI'], [11, 'Google PaLM'], [14, 'Anthropic'], [15, 'Baidu'], [16, 'Zhipu'], [17, 'Qwen'], [18, 'Spark'], [19, '360'],
  [20, 'OpenRouter'], [23, 'Tencent'], [25, 'Google Gemini'], [26, 'Baichuan'], [27, 'MiniMax'], [28, 'Deepseek'], [29, 'Moonshot'],
  [30, 'Mistral'], [31, 'Groq'], [33, 'Yi'], [34, 'Midjourney'], [35, 'Cloudflare AI'], [36, 'Cohere'], [37, 'Stability AI'],
  [38, 'Coze'], [39, 'Ollama'], [40, 'Hunyuan'], [41, 'Suno'], [43, 'Meta'], [44, 'Ideogram'], [45, 'Siliconflow'], [46, 'Flux'],
  [47, 'Jina'], [48, 'Rerank'], [51, 'RecraftAI'], [53, 'Kling'], [56, 'xAI'],
];

/** Built-in model owners (api.md §7.3), inserted when missing; edited names are kept. */
export async function seedModelOwners(ctx: AppContext): Promise<void> {
  const existing = new Set((await listModelOwners(ctx.db)).map((o) => o.id));
  for (const [id, name] of OWNERS) if (!existing.has(id)) await upsertModelOwner(ctx.db, { id, name, icon: '' });
}
