import type { z } from 'zod';
import type { ModelInfo, ModelInfoBody, ModelInfoParsed } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import { parseJsonOr } from '../../common/json.js';
import { deleteModelInfo, findModelInfoById, findModelInfoByModel, insertModelInfo, updateModelInfo, type ModelInfoRow } from '../../db/repos/model-info.js';

type Body = z.infer<typeof ModelInfoBody>;

/** List columns hold JSON-array text; `support_url` may also be one plain URL. */
function listOf(text: string | null): string[] {
  const value = parseJsonOr<unknown>(text, undefined);
  if (Array.isArray(value)) return value.map(String);
  return text?.trim() ? [text.trim()] : [];
}

export function toModelInfoJson(row: ModelInfoRow): ModelInfo {
  return {
    ...row,
    description: row.description ?? '',
    input_modalities: row.input_modalities ?? '[]',
    output_modalities: row.output_modalities ?? '[]',
    tags: row.tags ?? '[]',
    support_url: row.support_url ?? '[]',
  };
}

export function parseModelInfo(row: ModelInfoRow): ModelInfoParsed {
  return {
    model: row.model,
    name: row.name,
    description: row.description ?? '',
    context_length: row.context_length,
    max_tokens: row.max_tokens,
    input_modalities: listOf(row.input_modalities),
    output_modalities: listOf(row.output_modalities),
    tags: listOf(row.tags),
    support_url: listOf(row.support_url),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const columns = (b: Body) => ({
  model: b.model,
  name: b.name,
  description: b.description,
  context_length: b.context_length,
  max_tokens: b.max_tokens,
  input_modalities: JSON.stringify(b.input_modalities),
  output_modalities: JSON.stringify(b.output_modalities),
  tags: JSON.stringify(b.tags),
  support_url: JSON.stringify(b.support_url),
});
// Price answers embed model info, so a change reloads prices everywhere.
const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.prices, '');

export async function getModelInfo(ctx: AppContext, id: number): Promise<ModelInfo> {
  const row = await findModelInfoById(ctx.db, id);
  if (!row) throw apiError(404, 'model_info_not_found');
  return toModelInfoJson(row);
}

export async function createModelInfo(ctx: AppContext, body: Body): Promise<void> {
  if (await findModelInfoByModel(ctx.db, body.model)) throw apiError(409, 'model_info_exists');
  const now = nowSeconds();
  await insertModelInfo(ctx.db, { ...columns(body), created_at: now, updated_at: now });
  await changed(ctx);
}

export async function updateModelInfoById(ctx: AppContext, body: Body): Promise<void> {
  if (!body.id) throw apiError(400, 'invalid_parameter', { field: 'id', detail: 'required' }, { fields: [{ path: 'id', code: 'required', message: 'required' }] });
  if (!(await findModelInfoById(ctx.db, body.id))) throw apiError(404, 'model_info_not_found');
  const clash = await findModelInfoByModel(ctx.db, body.model);
  if (clash && clash.id !== body.id) throw apiError(409, 'model_info_exists');
  await updateModelInfo(ctx.db, body.id, { ...columns(body), updated_at: nowSeconds() });
  await changed(ctx);
}

export async function removeModelInfo(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteModelInfo(ctx.db, id))) throw apiError(404, 'model_info_not_found');
  await changed(ctx);
}
