import { HubError } from '../../common/errors.js';
import type { RelayState } from './relay-state.js';
import type { Prepared } from './prepare.js';
import type { PlanHold } from './plans.js';

/**
 * The plan step before the balance hold: a request a live plan covers holds on the plan's window.
 * When every covering window is spent, the request pays from the balance if the user allows it,
 * else it is refused with a 429 saying when the window resets.
 */
export async function holdOnPlan(state: RelayState, p: Prepared, reserved: number): Promise<PlanHold | undefined> {
  const { user } = p.caller;
  const result = await state.plans.hold(user.id, p.group, p.model, reserved);
  if (!result || 'key' in result) return result;
  if (user.plan_fallback === 1) return undefined;
  if (result.tooLarge) {
    // Waiting for the reset would not help: the worst case is above what a whole window includes.
    throw new HubError(400, `this request's worst-case cost (${reserved} quota, from its prompt and max_tokens) is more than your plan's window includes; lower max_tokens or allow falling back to your balance`, {
      type: 'one_hub_error',
      code: 'plan_window_too_small',
    });
  }
  const wait = Math.max(1, result.resetAt - Math.floor(state.plans.now() / 1000));
  const at = new Date(result.resetAt * 1000).toISOString().replace('.000Z', 'Z');
  throw new HubError(429, `plan window spent: the quota your plan includes for ${p.model} is used up until the window resets at ${at} (in ${wait} s); allow falling back to your balance to keep going`, {
    type: 'one_hub_error',
    code: 'plan_window_spent',
    retryAfter: wait,
  });
}
