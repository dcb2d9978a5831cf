import { CHANNEL_STATUS, UNKNOWN_OWNER } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { listChannelsByStatus, listEnabledChannelsOfTypes, type ChannelRow } from '../../db/repos/channels.js';
import { listModelOwners } from '../../db/repos/model-owners.js';
import { listPrices } from '../../db/repos/prices.js';
import { fetchUpstreamModels, queryBalance, testChannel } from '../../relay/channel-ops.js';

/** OpenAI (1) and Custom (8) are the types refreshed by "update all balances", as in the original. */
const BALANCE_TYPES = [1, 8];
let testAllRunning = false;

/** Every priced model as an OpenAI model list, sorted by owner, for the channel form's picker. */
export async function pricedModelList(ctx: AppContext) {
  const owners = new Map((await listModelOwners(ctx.db)).map((o) => [o.id, o.name]));
  const data = (await listPrices(ctx.db)).map((p) => ({ id: p.model, object: 'model', created: 1677649963, owned_by: owners.get(p.channel_type) ?? UNKNOWN_OWNER }));
  data.sort((a, b) => a.owned_by.localeCompare(b.owned_by) || a.id.localeCompare(b.id));
  return { object: 'list', data };
}

/** Model ids the provider lists, for a channel being edited: the first key line, else the stored channel's key. */
export async function providerModels(
  ctx: AppContext,
  body: { type: number; key?: string; base_url?: string; other?: string; proxy?: string },
  stored?: ChannelRow,
): Promise<string[]> {
  const key = body.key?.split('\n')[0]?.trim() || stored?.key;
  if (!key) throw apiError(400, 'channel_key_empty', undefined, { message: 'key cannot be empty' });
  const probe = {
    ...(stored ?? {}),
    type: body.type,
    key,
    base_url: body.base_url ?? stored?.base_url ?? '',
    other: body.other ?? stored?.other ?? '',
    proxy: body.proxy ?? stored?.proxy ?? '',
    model_mapping: null,
    model_headers: null,
  } as ChannelRow;
  return [...new Set(await fetchUpstreamModels(ctx, probe))];
}

/** Starts testing every enabled and auto-disabled channel in the background; false when a run is going on. */
export function startTestAll(ctx: AppContext): boolean {
  if (testAllRunning) return false;
  testAllRunning = true;
  void (async () => {
    try {
      for (const row of await listChannelsByStatus(ctx.db, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled])) await testChannel(ctx, row);
    } catch (error) {
      ctx.log.error({ err: error }, 'channel test-all failed');
    } finally {
      testAllRunning = false;
    }
  })();
  return true;
}

/** Refreshes the balance of every enabled OpenAI and Custom channel; answers how many were refreshed. */
export async function updateAllBalances(ctx: AppContext): Promise<number> {
  let refreshed = 0;
  for (const row of await listEnabledChannelsOfTypes(ctx.db, BALANCE_TYPES)) {
    try {
      if ((await queryBalance(ctx, row)) !== null) refreshed++;
    } catch (error) {
      ctx.log.warn({ err: error, channel: row.id }, 'balance update failed');
    }
  }
  return refreshed;
}
