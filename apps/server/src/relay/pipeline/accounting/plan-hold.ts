import { HubError } from '../../../common/errors.js';
import type { RelayState } from '../relay-state.js';
import type { Caller } from '../flow/caller.js';
import type { PlanHold } from './plans.js';

/** Who asks for which model: what a plan's coverage is decided by. */
export interface PlanAsk {
  caller: Caller;
  group: string;
  model: string;
}

/**
 * The plan step before the balance hold, for every billed relay path (the doors, realtime
 * responses, async tasks): a request a live plan covers holds on the plan's window. When every
 * covering window is spent, the request pays from the balance if the user allows it, else it is
 * refused with a 429 saying when the window resets. `hint` tells a door's caller how to lower
 * a worst case no window could ever hold.
 */
export async function holdOnPlan(state: RelayState, ask: PlanAsk, amount: number, hint = ''): Promise<PlanHold | undefined> {
  const { user } = ask.caller;
  const result = await state.plans.hold(user.id, ask.group, ask.model, amount);
  if (!result || 'key' in result) return result;
  if (user.plan_fallback === 1) return undefined;
  if (result.tooLarge) {
    // Waiting for the reset would not help: the worst case is above what a whole window includes.
    throw new HubError(400, `this request's worst-case cost (${amount} quota) is more than your plan's window includes; ${hint}allow falling back to your balance`, {
      type: 'one_hub_error',
      code: 'plan_window_too_small',
    });
  }
  throw planSpent(state, ask.model, result.resetAt);
}

/** The 429 of a spent window: its message names the reset time, `Retry-After` the seconds to it. */
function planSpent(state: RelayState, model: string, resetAt: number): HubError {
  const wait = Math.max(1, resetAt - Math.floor(state.plans.now() / 1000));
  const at = new Date(resetAt * 1000).toISOString().replace('.000Z', 'Z');
  return new HubError(429, `plan window spent: the quota your plan includes for ${model} is used up until the window resets at ${at} (in ${wait} s); allow falling back to your balance to keep going`, {
    type: 'one_hub_error',
    code: 'plan_window_spent',
    retryAfter: wait,
  });
}
