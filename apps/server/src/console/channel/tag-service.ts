import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { CHANNEL_STATUS, type Channel, type UpdateChannelBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { EVENTS } from '../../cache/events.js';
import { softDeleteChannels, type NewChannel } from '../../db/repos/channels.js';
import { clearChannelTag, insertTagChannel, listTagChannels, softDeleteTagChannels, updateTagChannels } from '../../db/repos/channel-tags.js';
import { channelColumns } from './service.js';
import { toChannelJson } from './channel-json.js';
import { transact } from '../../db/retry.js';

const changed = (ctx: AppContext) => ctx.store.publish(EVENTS.channels, '');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

async function members(ctx: AppContext, tag: string) {
  const rows = await listTagChannels(ctx.db, tag);
  if (!rows.length) throw apiError(404, 'tag_not_found');
  return rows;
}

/** The tag as one editable channel: the first member with every key of the tag, one per line. */
export async function tagAsChannel(ctx: AppContext, tag: string): Promise<Channel & { KeyMap: Record<string, number> }> {
  const rows = await members(ctx, tag);
  return {
    ...toChannelJson(rows[0], true),
    key: rows.map((r) => r.key).join('\n'),
    KeyMap: Object.fromEntries(rows.map((r) => [md5(r.key), r.id])),
  };
}

/**
 * Replaces the tag's key set (one channel per key: keys no longer listed go,
 * new keys become channels copied from the first member) and writes every sent
 * field on all members — false flags included, unlike the original (§31.15).
 */
export async function updateTag(ctx: AppContext, tag: string, body: Omit<z.infer<typeof UpdateChannelBody>, 'id'>): Promise<void> {
  const keys = [...new Set((body.key ?? '').split('\n').map((k) => k.trim()).filter(Boolean))];
  if (!keys.length) throw apiError(400, 'channel_key_empty');
  const rows = await members(ctx, tag);
  const { key: _key, name, ...shared } = body;
  const patch = channelColumns(shared);
  const now = nowSeconds();
  await transact(ctx.db, async (trx) => {
    await softDeleteChannels(trx, rows.filter((m) => !keys.includes(m.key)).map((m) => m.id), now);
    const known = new Set(rows.map((m) => m.key));
    const { id: _id, ...template } = rows[0];
    let n = rows.length;
    for (const key of keys.filter((k) => !known.has(k))) {
      const fresh = { used_quota: 0, balance: 0, balance_updated_time: 0, created_time: now, test_time: 0, response_time: 0 };
      await insertTagChannel(trx, { ...template, ...(patch as NewChannel), ...fresh, key, name: `${name ?? template.name}_${++n}` });
    }
    if (Object.keys(patch).length) await updateTagChannels(trx, tag, patch);
  });
  await changed(ctx);
}

export async function setTagPriority(ctx: AppContext, tag: string, priority: number): Promise<void> {
  await members(ctx, tag);
  await updateTagChannels(ctx.db, tag, { priority });
  await changed(ctx);
}

export async function setTagStatus(ctx: AppContext, tag: string, enable: boolean): Promise<void> {
  await members(ctx, tag);
  await updateTagChannels(
    ctx.db,
    tag,
    enable ? { status: CHANNEL_STATUS.enabled, disabled_source: '', disabled_reason: null } : { status: CHANNEL_STATUS.manuallyDisabled, disabled_source: 'manual' },
  );
  await changed(ctx);
}

/** Soft-deletes the tag's channels (only the disabled ones when asked); answers how many. */
export async function deleteTag(ctx: AppContext, tag: string, disabledOnly: boolean): Promise<number> {
  await members(ctx, tag);
  const count = await softDeleteTagChannels(ctx.db, tag, nowSeconds(), disabledOnly ? [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled] : undefined);
  await changed(ctx);
  return count;
}

export async function untagChannel(ctx: AppContext, id: number): Promise<void> {
  if (!(await clearChannelTag(ctx.db, id))) throw apiError(404, 'channel_not_found');
  await changed(ctx);
}
