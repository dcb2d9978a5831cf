import { CHANNEL_STATUS } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { listChannelsByStatus } from '../db/repos/channels.js';
import { testChannel } from '../relay/channel-ops.js';
import { autoDisable } from '../relay/pipeline/routing/auto-disable.js';
import { relayState } from '../relay/state.js';
import type { JobDef } from './runner.js';
import { emitJobNotice } from './notices.js';
import { pace } from './pace.js';

/**
 * The periodic batch test (relay.md §7.2, every CHANNEL_TEST_FREQUENCY minutes). Enabled channels
 * that fail for a channel-attributable reason or answer slower than ChannelDisableThreshold are
 * disabled (AutomaticDisableChannelEnabled); channels the gateway disabled itself are re-enabled
 * when they answer again (AutomaticEnableChannelEnabled). Manually disabled channels are not touched.
 */
export async function testChannelsOnce(ctx: AppContext): Promise<string> {
  const rows = await listChannelsByStatus(ctx.db, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled]);
  const disabled: string[] = [];
  const enabled: string[] = [];
  let failed = 0;
  for (const [i, row] of rows.entries()) {
    await pace(ctx, i);
    const result = await testChannel(ctx, row);
    if (!result.success) failed++;
    if (row.status === CHANNEL_STATUS.enabled && (result.channelFault || result.slow)) {
      await autoDisable(relayState(ctx), row, `定时测试：${result.message}`.slice(0, 500));
    }
  }
  const after = new Map((await listChannelsByStatus(ctx.db, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled])).map((r) => [r.id, r.status]));
  for (const row of rows) {
    const now = after.get(row.id);
    if (row.status === CHANNEL_STATUS.enabled && now === CHANNEL_STATUS.autoDisabled) disabled.push(`#${row.id} ${row.name}`);
    if (row.status === CHANNEL_STATUS.autoDisabled && now === CHANNEL_STATUS.enabled) enabled.push(`#${row.id} ${row.name}`);
  }
  if (disabled.length || enabled.length) {
    const lines = [...disabled.map((c) => `- disabled ${c}`), ...enabled.map((c) => `- re-enabled ${c}`)];
    emitJobNotice(ctx, { job: 'channel_test', title: 'Channel test', text: lines.join('\n') });
  }
  return `tested ${rows.length}, failed ${failed}, disabled ${disabled.length}, re-enabled ${enabled.length}`;
}

export function channelTestJob(ctx: AppContext): JobDef {
  const minutes = ctx.config.CHANNEL_TEST_FREQUENCY;
  return { name: 'channel_test', schedule: minutes > 0 ? { everySeconds: minutes * 60 } : undefined, run: (c) => testChannelsOnce(c) };
}
