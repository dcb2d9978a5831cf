import { LOG_TYPE } from '@one-hub/contract';
import type { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import type { RelayState } from './relay-state.js';
import type { Prepared } from './prepare.js';
import { doorOf } from './settle.js';
import { scrubIdentity } from './caller-error.js';

/**
 * Queues an error log row for a failed attempt: the admin's record of what upstream
 * really said (hosts included; the channel's keys removed), since the caller only
 * gets a generic reason. Only failures, so the hot path pays nothing.
 */
export function logFailure(state: RelayState, p: Prepared, row: ChannelRow, hub: HubError, requestId: string, ip: string): void {
  if (hub.code === 'client_closed' || !state.ctx.options.get('LogErrorEnabled')) return;
  const { token, user } = p.caller;
  const upstream = typeof hub.upstream === 'string' && hub.upstream ? `\n${hub.upstream}` : '';
  state.recorder.log({
    type: LOG_TYPE.error,
    created_at: nowSeconds(),
    user_id: user.id,
    username: user.username,
    token_id: token.id,
    token_name: token.name,
    channel_id: row.id,
    model_name: p.model,
    request_time: Date.now() - p.startedAt,
    is_stream: p.stream ? 1 : 0,
    source_ip: ip,
    group: p.group,
    request_id: requestId,
    content: scrubIdentity(`${hub.status} ${hub.message}${upstream}`, row, true).slice(0, 4000),
    metadata: JSON.stringify({ door: doorOf(p.endpoint), status: hub.status, type: hub.type, code: hub.code }),
  });
}
