import { LOG_TYPE } from '@one-hub/contract';
import type { HubError } from '../../../common/errors.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from './prepare.js';
import { doorOf, requestLogFields } from '../accounting/settle.js';
import { adminText } from '../../../egress/failure.js';

/** The request columns of a log row (requestLogFields' answer). */
type RequestFields = ReturnType<typeof requestLogFields>;

/**
 * Queues an error log row for a failed attempt: the admin's record of what upstream
 * really said (hosts included; the channel's keys removed), and, for the user who sent
 * it, the generic reason they were told (`told`, worded for a non-admin). Only failures,
 * so the hot path pays nothing.
 */
export function logFailure(state: RelayState, p: Prepared, row: ChannelRow, hub: HubError, requestId: string, ip: string, told: HubError): void {
  if (hub.code === 'client_closed' || !state.ctx.options.get('LogErrorEnabled')) return;
  writeFailureRow(state, { ...requestLogFields(p, requestId, ip), model_name: p.model }, row, hub, told, doorOf(p.endpoint));
}

/**
 * The error row of any door's outside failure. Its owner's log view (`/api/log/self`) shows only
 * `caller_status` and `reason`; `content` (the scrubbed upstream text, `prefix` before it) is the admin's.
 */
export function writeFailureRow(
  state: RelayState,
  fields: RequestFields & { model_name: string },
  row: ChannelRow | undefined,
  hub: HubError,
  told: HubError,
  door: string,
  prefix = '',
): void {
  state.recorder.log({
    type: LOG_TYPE.error,
    ...fields,
    channel_id: row?.id ?? 0,
    content: `${prefix}${adminText(hub, row)}`.slice(0, 4000),
    metadata: JSON.stringify({ door, status: hub.status, type: hub.type, code: hub.code, caller_status: told.status, caller_code: told.code, reason: told.message.slice(0, 500) }),
  });
}
