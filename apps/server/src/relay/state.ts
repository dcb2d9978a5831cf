import type { AppContext } from '../app-context.js';
import type { RelayState } from './pipeline/relay-state.js';

const states = new WeakMap<AppContext, RelayState>();

export function attachRelayState(ctx: AppContext, state: RelayState): void {
  states.set(ctx, state);
}

/** The relay state built at start-up for this server. */
export function relayState(ctx: AppContext): RelayState {
  const state = states.get(ctx);
  if (!state) throw new Error('relay state not initialised');
  return state;
}
