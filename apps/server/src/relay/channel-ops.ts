import type { AppContext } from '../app-context.js';
import type { ChannelRow } from '../db/repos/channels.js';

/**
 * What the console's channel screens ask of the relay: it alone knows how to
 * talk to each provider. Owned by the relay; the channel console area calls it.
 */
export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds the test request took. */
  time: number;
}

export async function testChannel(ctx: AppContext, channel: ChannelRow, model?: string): Promise<ChannelTestResult> {
  void ctx;
  void channel;
  void model;
  return { success: false, message: 'channel tests are not available yet', time: 0 };
}

/** Model ids the provider lists for this channel's key. */
export async function fetchUpstreamModels(ctx: AppContext, channel: ChannelRow): Promise<string[]> {
  void ctx;
  void channel;
  return [];
}

/** Current upstream balance (provider currency), or null when the provider has no balance API. */
export async function queryBalance(ctx: AppContext, channel: ChannelRow): Promise<number | null> {
  void ctx;
  void channel;
  return null;
}
