import { CHANNEL_STATUS } from '@one-hub/contract';
import { EVENTS } from '../../../cache/events.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { RelayState } from '../relay-state.js';
import { notifyAdmins } from '../../../notify/index.js';

/**
 * Disables a channel after a channel-attributable failure when the option is on.
 * Manual disables are never touched; every node drops the channel at once.
 */
export async function autoDisable(state: RelayState, row: ChannelRow, reason: string): Promise<void> {
  const { ctx } = state;
  if (!ctx.options.get('AutomaticDisableChannelEnabled')) return;
  try {
    const result = await ctx.db
      .updateTable('channels')
      .set({ status: CHANNEL_STATUS.autoDisabled, disabled_source: 'auto', disabled_reason: reason.slice(0, 500) })
      .where('id', '=', row.id)
      .where('status', '=', CHANNEL_STATUS.enabled)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) {
      ctx.log.warn({ channel: row.id, reason }, `通道「${row.name}」（#${row.id}）已被禁用`);
      await ctx.store.publish(EVENTS.channels, String(row.id));
      notifyAdmins(ctx, { event: 'channel_disabled', title: `通道「${row.name}」（#${row.id}）已被禁用 (channel disabled)`, text: `原因 (reason): ${reason}` });
    }
  } catch (error) {
    ctx.log.error({ err: error, channel: row.id }, 'auto-disable failed');
  }
}

/** Re-enables a channel the gateway disabled itself, after it passed a test. */
export async function autoEnable(state: RelayState, row: ChannelRow): Promise<boolean> {
  const { ctx } = state;
  if (!ctx.options.get('AutomaticEnableChannelEnabled') || row.status !== CHANNEL_STATUS.autoDisabled) return false;
  const result = await ctx.db
    .updateTable('channels')
    .set({ status: CHANNEL_STATUS.enabled, disabled_source: '', disabled_reason: null })
    .where('id', '=', row.id)
    .where('status', '=', CHANNEL_STATUS.autoDisabled)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await ctx.store.publish(EVENTS.channels, String(row.id));
  notifyAdmins(ctx, { event: 'channel_enabled', title: `通道「${row.name}」（#${row.id}）已被启用 (channel re-enabled)`, text: '测试通过 (the channel passed a test)' });
  return true;
}
