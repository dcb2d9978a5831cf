import type { z } from 'zod';
import type { ChannelBody, UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { notFound, apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import {
  findChannelById,
  insertChannel,
  softDeleteChannels,
  softDeleteDisabledChannels,
  updateChannel,
  listChannelsByIds,
  updateChannelsByIds,
  type ChannelRow,
  type NewChannel,
} from '../../db/repos/channels.js';
import { transact } from '../../db/retry.js';

type Body = z.infer<typeof ChannelBody>;
const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.channels, '');
const text = (v: string | undefined) => (v ? v : null);
const flag = (v: boolean | undefined) => (v ? 1 : 0);

/** Channel columns for the fields present in a (partial) body. */
export function channelColumns(body: Partial<Body>): Partial<NewChannel> {
  const c: Partial<NewChannel> = {};
  if (body.type !== undefined) c.type = body.type;
  if (body.key !== undefined) c.key = body.key;
  if (body.name !== undefined) c.name = body.name;
  if (body.status !== undefined) {
    c.status = body.status;
    c.disabled_source = body.status === 1 ? '' : 'manual';
    if (body.status === 1) c.disabled_reason = null;
  }
  if (body.weight !== undefined) c.weight = body.weight;
  if (body.priority !== undefined) c.priority = body.priority;
  if (body.base_url !== undefined) c.base_url = body.base_url.replace(/\/+$/, '');
  if (body.other !== undefined) c.other = body.other;
  if (body.models !== undefined) c.models = body.models.split(',').map((m) => m.trim()).filter(Boolean).join(',');
  if (body.group !== undefined) c.group = body.group.split(',').map((g) => g.trim()).filter(Boolean).join(',');
  if (body.tag !== undefined) c.tag = body.tag;
  if (body.model_mapping !== undefined) c.model_mapping = text(body.model_mapping);
  if (body.model_headers !== undefined) c.model_headers = text(body.model_headers);
  if (body.custom_parameter !== undefined) c.custom_parameter = text(body.custom_parameter);
  if (body.proxy !== undefined) c.proxy = body.proxy;
  if (body.test_model !== undefined) c.test_model = body.test_model;
  if (body.only_chat !== undefined) c.only_chat = flag(body.only_chat);
  if (body.pre_cost !== undefined) c.pre_cost = body.pre_cost;
  if (body.compatible_response !== undefined) c.compatible_response = flag(body.compatible_response);
  if (body.allow_extra_body !== undefined) c.allow_extra_body = flag(body.allow_extra_body);
  if (body.disabled_stream !== undefined) c.disabled_stream = body.disabled_stream ? JSON.stringify(body.disabled_stream) : null;
  if (body.plugin !== undefined) c.plugin = body.plugin ? JSON.stringify(body.plugin) : null;
  return c;
}

/** One channel per non-empty key line; line i takes base URL line i when given. */
export async function createChannels(ctx: AppContext, body: Body): Promise<number> {
  const keys = body.key.split('\n').map((k) => k.trim());
  const baseUrls = body.base_url.split('\n').map((u) => u.trim());
  const now = nowSeconds();
  let created = 0;
  await transact(ctx.db, async (trx) => {
    for (const [i, key] of keys.entries()) {
      if (!key) continue;
      await insertChannel(trx, {
        ...(channelColumns(body) as NewChannel),
        key,
        name: i === 0 ? body.name : `${body.name}_${i + 1}`,
        base_url: (baseUrls[i] || baseUrls[0] || '').replace(/\/+$/, ''),
        created_time: now,
      });
      created++;
    }
  });
  await changed(ctx);
  return created;
}

export async function loadChannel(ctx: AppContext, id: number): Promise<ChannelRow> {
  const row = await findChannelById(ctx.db, id);
  if (!row) throw apiError(404, 'channel_not_found');
  return row;
}

/** Only the fields sent change (the original zeroed omitted fields on a full update). */
export async function updateChannelById(ctx: AppContext, body: z.infer<typeof UpdateChannelBody>): Promise<ChannelRow> {
  await loadChannel(ctx, body.id);
  const patch = channelColumns(body);
  if (Object.keys(patch).length) await updateChannel(ctx.db, body.id, patch);
  await changed(ctx);
  return loadChannel(ctx, body.id);
}

export async function deleteChannels(ctx: AppContext, ids: number[]): Promise<number> {
  const count = await softDeleteChannels(ctx.db, ids, nowSeconds());
  await changed(ctx);
  return count;
}

export async function deleteDisabledChannels(ctx: AppContext): Promise<number> {
  const count = await softDeleteDisabledChannels(ctx.db, nowSeconds());
  await changed(ctx);
  return count;
}

/** Removes one model name from each channel's list. */
export async function removeModelFromChannels(ctx: AppContext, ids: number[], model: string): Promise<number> {
  const rows = await listChannelsByIds(ctx.db, ids);
  for (const row of rows) {
    const models = (row.models ?? '').split(',').filter((m) => m !== model);
    await updateChannel(ctx.db, row.id, { models: models.join(',') });
  }
  await changed(ctx);
  return rows.length;
}

/** Sets `other` (the Azure API version) on several channels. */
export async function setOtherOnChannels(ctx: AppContext, ids: number[], other: string): Promise<number> {
  const count = await updateChannelsByIds(ctx.db, ids, { other });
  await changed(ctx);
  return count;
}
