import type { RelayState } from '../pipeline/relay-state.js';
import { limitScopes } from '../pipeline/accounting/limits.js';
import type { TaskFacts } from './charge.js';

/**
 * A task submission counts against the same caps as a chat request (issue 21): the user's
 * in-flight count on this node, and the token, per-model-in-group and user RPM, in-flight and
 * spending limits. `run` is the submission; its charge adds to the spending windows (charge.ts).
 */
export async function withTaskLimits<T>(state: RelayState, facts: TaskFacts, model: string, run: () => Promise<T>): Promise<T> {
  const userId = facts.caller.user.id;
  state.inflight.enter(userId, state.ctx.options.get('UserMaxInflight'));
  try {
    const { token, user, setting, userLimits } = facts.caller;
    const scopes = limitScopes({ id: token.id, limits: setting.limits.request_limits }, { id: user.id, limits: userLimits }, facts.group, model, state.groups.limitsOf(facts.group));
    if (scopes.length) {
      // The charge is not known yet: the spending windows get it when the task settles (charge.ts).
      facts.limits = await state.limits.enter(scopes);
    }
  } catch (error) {
    state.inflight.leave(userId);
    throw error;
  }
  try {
    return await run();
  } finally {
    state.inflight.leave(userId);
    if (facts.limits) void state.limits.leave(facts.limits).catch((e) => state.ctx.log.warn({ err: e }, 'limit leave failed'));
  }
}
