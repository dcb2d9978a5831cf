import type { AppContext } from '../app-context.js';
import { listEnabledChannels } from '../db/repos/channels.js';
import { queryBalance } from '../relay/channel-ops.js';
import { autoDisable } from '../relay/pipeline/routing/auto-disable.js';
import { relayState } from '../relay/state.js';
import type { JobDef } from './runner.js';
import { emitJobNotice } from './notices.js';
import { pace } from './pace.js';

/**
 * Refreshes the stored balance of every enabled channel whose provider reports one
 * (every CHANNEL_UPDATE_FREQUENCY minutes). A balance at or below zero disables the
 * channel when AutomaticDisableChannelEnabled is on, with the reason `余额不足`.
 */
export async function refreshBalancesOnce(ctx: AppContext): Promise<string> {
  let refreshed = 0;
  let errors = 0;
  const empty: string[] = [];
  let asked = 0;
  for (const row of await listEnabledChannels(ctx.db)) {
    try {
      await pace(ctx, asked);
      const balance = await queryBalance(ctx, row);
      if (balance === null) continue;
      asked++;
      refreshed++;
      if (balance <= 0) {
        empty.push(`#${row.id} ${row.name}`);
        await autoDisable(relayState(ctx), row, '余额不足');
      }
    } catch (error) {
      asked++;
      errors++;
      ctx.log.warn({ err: error, channel: row.id }, 'balance refresh failed');
    }
  }
  if (empty.length) emitJobNotice(ctx, { job: 'balance_refresh', title: 'Channel balance exhausted', text: empty.map((c) => `- ${c}`).join('\n') });
  return `refreshed ${refreshed}, failed ${errors}, exhausted ${empty.length}`;
}

export function balanceRefreshJob(ctx: AppContext): JobDef {
  const minutes = ctx.config.CHANNEL_UPDATE_FREQUENCY;
  return { name: 'balance_refresh', schedule: minutes > 0 ? { everySeconds: minutes * 60 } : undefined, run: (c) => refreshBalancesOnce(c) };
}
