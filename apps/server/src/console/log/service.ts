import { createHmac, hkdfSync } from 'node:crypto';
import type { Selectable } from 'kysely';
import { LOG_TYPE, type LogEntry, type LogListQuery, type LogPage, type PageQuery } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { parseJsonOr } from '../../common/json.js';
import { pageLogs, type LogRow } from '../../db/repos/log-pages.js';

/** A page of everyone's log rows (admins) or of one user's own (userId set): capped count, keyset cursor. */
export async function logPage(ctx: AppContext, f: LogListQuery, q: PageQuery, userId?: number): Promise<LogPage> {
  const { rows, total, capped, nextCursor } = await pageLogs(ctx.readDb, f, q, userId);
  const admin = userId === undefined;
  return {
    data: rows.map((r) => toLogJson(ctx, r, admin)),
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

/** A failed request as its owner sees it: the door, the status and generic reason they were told, nothing of upstream. */
function ownFailure(text: string | null): { content: string; metadata: Record<string, unknown> } {
  const meta = parseJsonOr<Record<string, unknown>>(text, {});
  const status = Number(meta.caller_status ?? meta.status ?? 502);
  const reason = typeof meta.reason === 'string' && meta.caller_status !== undefined ? meta.reason : 'upstream error';
  return { content: `${status} ${reason}`, metadata: { door: meta.door, status, code: meta.caller_code ?? 'upstream_error', reason } };
}

// Users never see row ids: consecutive ids would tell them how many requests everyone else made
// between two of theirs. Their rows are keyed by an HMAC of the id instead, stable but revealing nothing.
const rowKeySecrets = new WeakMap<AppContext, Buffer>();

function opaqueRowKey(ctx: AppContext, id: number): string {
  let secret = rowKeySecrets.get(ctx);
  if (!secret) {
    // A sub-key of the server's secret-derived key, separated by its purpose; no new setting to keep.
    secret = Buffer.from(hkdfSync('sha256', ctx.twoFactorKey, 'one-hub', 'log row key', 32));
    rowKeySecrets.set(ctx, secret);
  }
  return createHmac('sha256', secret).update(String(id)).digest('base64url').slice(0, 16);
}

/** Log row as the API shows it: users get no row id and no channel object (api.md §30), only `channel_id`. */
export function toLogJson(ctx: AppContext, row: LogRow, admin: boolean): LogEntry {
  const failure = !admin && row.type === LOG_TYPE.error ? ownFailure(row.metadata) : undefined;
  return {
    id: admin ? row.id : 0,
    key: admin ? String(row.id) : opaqueRowKey(ctx, row.id),
    user_id: row.user_id,
    created_at: row.created_at,
    type: row.type,
    content: failure ? failure.content : (row.content ?? ''),
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: row.quota,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    channel_id: failure ? 0 : row.channel_id,
    request_time: row.request_time,
    is_stream: row.is_stream === 1,
    source_ip: row.source_ip,
    group: row.group,
    estimated: row.estimated === 1,
    metadata: failure ? failure.metadata : metadataFor(row.metadata, admin),
    request_id: row.request_id,
    channel: admin && row.channel_name !== null ? { id: row.channel_id, name: row.channel_name } : null,
  };
}
