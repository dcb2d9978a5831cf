import { logMessage } from '@one-hub/contract';
import type { HubError } from '../../common/errors.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { isAdmin, outsideFailure } from '../../egress/failure.js';
import { requestLogFields } from '../pipeline/accounting/settle.js';
import { writeFailureRow } from '../pipeline/flow/failure-log.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { TaskFacts, TaskHold } from './charge.js';

/**
 * A task door's outside failure (egress/failure.ts): answers the error its caller gets and queues
 * the error row whose owner's view is the generic reason and whose admin view is the scrubbed
 * upstream text. `hold` is the hold the submission released (its amount is named in the row).
 */
export function refuseTask(state: RelayState, facts: TaskFacts, row: ChannelRow | undefined, hub: HubError, door: string, hold?: TaskHold): HubError {
  const told = outsideFailure(hub, row, false);
  const prefix = hold ? logMessage('task_refused', { held: hold.amount, reason: '' }).content : '';
  writeFailureRow(state, { ...requestLogFields(facts, facts.requestId, facts.ip), model_name: hold?.model ?? '' }, row, hub, told, door, prefix);
  return isAdmin(facts.caller.user.role) ? outsideFailure(hub, row, true) : told;
}
