import type { ModelOwner } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { EVENTS } from '../../cache/events.js';
import { deleteModelOwner, findModelOwner, insertModelOwner, listModelOwners, updateModelOwner } from '../../db/repos/model-owners.js';

/** Ids up to this are the built-in providers (keyed by channel type); custom owners go above it. */
export const BUILT_IN_OWNER_MAX_ID = 1000;

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
  for (const [id, name] of OWNERS) if (!existing.has(id)) await insertModelOwner(ctx.db, { id, name, icon: '' });
}

export async function ownerMap(ctx: AppContext): Promise<Record<string, ModelOwner>> {
  return Object.fromEntries((await listModelOwners(ctx.db)).map((o) => [String(o.id), o]));
}

export async function getOwner(ctx: AppContext, id: number): Promise<ModelOwner> {
  const owner = await findModelOwner(ctx.db, id);
  if (!owner) throw apiError(404, 'owner_not_found');
  return owner;
}

// Owner names label prices and available models, which the relay caches with the prices.
const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.prices, '');

export async function createOwner(ctx: AppContext, owner: ModelOwner): Promise<void> {
  if (owner.id <= BUILT_IN_OWNER_MAX_ID) throw apiError(400, 'owner_id_invalid');
  if (await findModelOwner(ctx.db, owner.id)) throw apiError(409, 'owner_exists');
  await insertModelOwner(ctx.db, owner);
  await changed(ctx);
}

export async function updateOwner(ctx: AppContext, owner: ModelOwner): Promise<void> {
  if (!(await updateModelOwner(ctx.db, owner))) throw apiError(404, 'owner_not_found');
  await changed(ctx);
}

export async function deleteOwner(ctx: AppContext, id: number): Promise<void> {
  if (id <= BUILT_IN_OWNER_MAX_ID) throw apiError(400, 'owner_id_invalid');
  if (!(await deleteModelOwner(ctx.db, id))) throw apiError(404, 'owner_not_found');
  await changed(ctx);
}
