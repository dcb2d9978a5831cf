import type { RelayState } from '../pipeline/relay-state.js';
import { Poller } from './poller.js';
import { midjourneyRound } from './midjourney/poll.js';
import { taskRound } from './generic/poll.js';
import { suno } from './suno/family.js';
import { kling } from './kling/family.js';
import { videos } from './videos/family.js';
import { batchRound } from '../batches/poll.js';

export interface TaskPollers {
  midjourney: Poller;
  suno: Poller;
  kling: Poller;
  videos: Poller;
  /** Anthropic Message Batches until they end and are billed (relay/batches). */
  batches: Poller;
}

const pollers = new WeakMap<RelayState, TaskPollers>();

/** The pollers of this server, one per task family, created and started once. */
export function taskPollers(state: RelayState): TaskPollers {
  let p = pollers.get(state);
  if (p) return p;
  p = {
    midjourney: new Poller(state.ctx, 'midjourney', midjourneyRound(state)),
    suno: new Poller(state.ctx, 'suno', taskRound(state, suno)),
    kling: new Poller(state.ctx, 'kling', taskRound(state, kling)),
    videos: new Poller(state.ctx, 'videos', taskRound(state, videos)),
    batches: new Poller(state.ctx, 'message-batches', batchRound(state)),
  };
  pollers.set(state, p);
  const all = Object.values(p);
  for (const poller of all) poller.start();
  // First on shutdown: a round still running finishes before the recorder's last flush.
  state.ctx.onClose.unshift(async () => {
    await Promise.all(all.map((poller) => poller.close()));
  });
  return p;
}
