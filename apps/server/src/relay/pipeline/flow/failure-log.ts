import { LOG_TYPE } from '@one-hub/contract';
import type { HubError } from '../../../common/errors.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from './prepare.js';
import { doorOf, requestLogFields } from '../accounting/settle.js';
import { scrubIdentity } from './caller-error.js';

/**
 * Queues an error log row for a failed attempt: the admin's record of what upstream
 * really said (hosts included; the channel's keys removed), and, for the user who sent
 * it, the generic reason they were told (`told`, worded for a non-admin). Only failures,
 * so the hot path pays nothing.
 */
export function logFailure(state: RelayState, p: Prepared, row: ChannelRow, hub: HubError, requestId: string, ip: string, told: HubError): void {
  if (hub.code === 'client_closed' || !state.ctx.options.get('LogErrorEnabled')) return;
  const upstream = typeof hub.upstream === 'string' && hub.upstream ? `\n${hub.upstream}` : '';
  state.recorder.log({
    type: LOG_TYPE.error,
    ...requestLogFields(p, requestId, ip),
    channel_id: row.id,
    model_name: p.model,
    content: scrubIdentity(`${hub.status} ${hub.message}${upstream}`, row, true).slice(0, 4000),
    // `caller_*`: what a non-admin caller was told (status class and generic reason), the only part its owner sees.
    metadata: JSON.stringify({ door: doorOf(p.endpoint), status: hub.status, type: hub.type, code: hub.code, caller_status: told.status, caller_code: told.code, reason: told.message.slice(0, 500) }),
  });
}
