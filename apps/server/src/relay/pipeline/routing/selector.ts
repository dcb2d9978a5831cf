import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { listChannelsByStatus, listEnabledChannels } from '../../../db/repos/channels.js';
import { CHANNEL_STATUS } from '@one-hub/contract';
import { ChannelIndex, pickWeighted, type IndexedChannel } from './channel-index.js';

export interface SelectOptions {
  exclude: Set<number>;
  stream: boolean;
  hasTools: boolean;
}

/** Holds the live index, cooldowns and per-node disable flags; picks channels for requests. */
export class ChannelSelector {
  index = new ChannelIndex([]);
  /** Disabled channels, indexed alike: they may come back, so they count as alternatives. */
  private standby = new ChannelIndex([]);
  private readonly cooldown = new Map<string, number>();
  private reloading: Promise<void> | null = null;
  private pending = false;

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.channels, () => this.reload());
  }

  /** Rebuilds from the database; overlapping requests coalesce into one extra rebuild. */
  async reload(): Promise<void> {
    if (this.reloading) {
      this.pending = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.pending = false;
        const [enabled, disabled] = await Promise.all([
          listEnabledChannels(this.ctx.db),
          listChannelsByStatus(this.ctx.db, [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled]),
        ]);
        this.index = new ChannelIndex(enabled);
        this.standby = new ChannelIndex(disabled);
      } while (this.pending);
    })().finally(() => (this.reloading = null));
    return this.reloading;
  }

  freeze(channelId: number, model: string, seconds: number): void {
    if (seconds > 0) this.cooldown.set(`${channelId}:${model}`, Date.now() + seconds * 1000);
  }

  isFrozen(channelId: number, model: string): boolean {
    const until = this.cooldown.get(`${channelId}:${model}`);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.cooldown.delete(`${channelId}:${model}`);
    return false;
  }

  /** The usable channels of the highest tier that has any, skipping tried, frozen and unsuitable ones. */
  candidates(group: string, model: string, opts: SelectOptions): IndexedChannel[] {
    for (const tier of this.index.tiers(group, model)) {
      const usable = tier.filter(
        (c) =>
          !opts.exclude.has(c.row.id) &&
          !this.isFrozen(c.row.id, model) &&
          !(opts.hasTools && c.onlyChat) &&
          !(opts.stream && c.disabledStream.has(model)),
      );
      if (usable.length) return usable;
    }
    return [];
  }

  /**
   * Whether more than one channel of the group serves the model, disabled ones included
   * (a session that moved while its channel was out should stay moved when it returns).
   */
  hasChoice(group: string, model: string): boolean {
    const tiers = this.index.tiers(group, model);
    return tiers.length > 1 || (tiers[0]?.length ?? 0) > 1 || this.standby.tiers(group, model).length > 0;
  }

  /**
   * Whether the channel, enabled or disabled, serves the model in the group; undefined when no
   * such channel exists any more (deleted).
   */
  serves(group: string, model: string, channelId: number): boolean | undefined {
    if (!this.index.byId.has(channelId) && !this.standby.byId.has(channelId)) return undefined;
    const has = (index: ChannelIndex) => index.tiers(group, model).some((tier) => tier.some((c) => c.row.id === channelId));
    return has(this.index) || has(this.standby);
  }

  /** Whether any channel of any group, enabled or disabled, serves the model (only asked when none could be picked). */
  knowsModel(model: string): boolean {
    return this.index.servesAnywhere(model) || this.standby.servesAnywhere(model);
  }

  /** Highest tier first, weighted random inside it. */
  select(group: string, model: string, opts: SelectOptions): IndexedChannel | undefined {
    return pickWeighted(this.candidates(group, model, opts));
  }
}
