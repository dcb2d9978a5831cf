import { parseJsonOr } from '../../common/json.js';
import type { Channel } from '@one-hub/contract';
import type { ChannelRow } from '../../db/repos/channels.js';

/** Channel as the API shows it; `withKey` only for admin detail views, never in lists. */
export function toChannelJson(row: ChannelRow, withKey: boolean): Channel {
  const disabledStream = parseJsonOr<string[] | null>(row.disabled_stream, null);
  return {
    id: row.id,
    type: row.type,
    key: withKey ? row.key : '',
    status: row.status,
    name: row.name,
    weight: row.weight,
    created_time: row.created_time,
    test_time: row.test_time,
    response_time: row.response_time,
    base_url: row.base_url,
    other: row.other ?? '',
    balance: row.balance,
    balance_updated_time: row.balance_updated_time,
    models: row.models ?? '',
    group: row.group,
    tag: row.tag,
    used_quota: row.used_quota,
    model_mapping: row.model_mapping,
    model_headers: row.model_headers,
    custom_parameter: row.custom_parameter,
    priority: row.priority,
    proxy: row.proxy,
    test_model: row.test_model,
    only_chat: row.only_chat === 1,
    pre_cost: row.pre_cost,
    compatible_response: row.compatible_response === 1,
    allow_extra_body: row.allow_extra_body === 1,
    ...(disabledStream ? { disabled_stream: disabledStream } : {}),
    plugin: parseJsonOr(row.plugin, null),
    disabled_reason: row.disabled_reason,
  };
}
