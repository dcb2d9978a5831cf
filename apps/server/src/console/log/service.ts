import type { LogEntry, LogListQuery, LogPage, PageQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { parseJsonOr } from '../../common/json.js';
import { pageLogs, type LogRow } from '../../db/repos/log-pages.js';

/** A page of everyone's log rows (admins) or of one user's own (userId set): capped count, keyset cursor. */
export async function logPage(ctx: AppContext, f: LogListQuery, q: PageQuery, userId?: number): Promise<LogPage> {
  const { rows, total, capped, nextCursor } = await pageLogs(ctx.db, f, q, userId);
  const admin = userId === undefined;
  return {
    data: rows.map((r) => toLogJson(r, admin)),
    page: q.page,
    size: q.size,
    total_count: total,
    total_capped: capped,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}

/** Metadata keys only administrators see: which provider family actually served the model. */
const ADMIN_METADATA = ['converted_to'];

function metadataFor(text: string | null, admin: boolean): Record<string, unknown> | null {
  const meta = parseJsonOr<Record<string, unknown> | null>(text, null);
  if (admin || !meta) return meta;
  for (const key of ADMIN_METADATA) delete meta[key];
  return meta;
}

/** Log row as the API shows it: users get no row id and no channel object (api.md §30), only `channel_id`. */
export function toLogJson(row: LogRow, admin: boolean): LogEntry {
  return {
    id: admin ? row.id : 0,
    user_id: row.user_id,
    created_at: row.created_at,
    type: row.type,
    content: row.content ?? '',
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: row.quota,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    channel_id: row.channel_id,
    request_time: row.request_time,
    is_stream: row.is_stream === 1,
    source_ip: row.source_ip,
    group: row.group,
    estimated: row.estimated === 1,
    metadata: metadataFor(row.metadata, admin),
    channel: admin && row.channel_name !== null ? { id: row.channel_id, name: row.channel_name } : null,
  };
}
