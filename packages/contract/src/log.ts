import { z } from 'zod';
import { text } from './format/text.js';

export interface LogEntry {
  /** The row id for administrators; 0 in a user's own list (api.md §30). */
  id: number;
  /** A stable key per row, for lists: the id for administrators, an opaque value in a user's own list. */
  key: string;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  channel_id: number;
  request_time: number;
  is_stream: boolean;
  source_ip: string;
  group: string;
  estimated: boolean;
  metadata: Record<string, unknown> | null;
  channel: { id: number; name: string } | null;
  /** The request id the caller got (`X-Oneapi-Request-Id`); empty for rows not from a request. */
  request_id: string;
}

/** Log lists count matching rows up to this many; beyond it `total_capped` is set and the console shows "10 000+". */
export const LOG_COUNT_CAP = 10_000;

/** A log page: the list envelope, plus whether the count stopped at LOG_COUNT_CAP and the keyset cursor of the next page. */
export interface LogPage {
  data: LogEntry[];
  page: number;
  size: number;
  /** Matching rows, at most LOG_COUNT_CAP. */
  total_count: number;
  total_capped: boolean;
  /** Pass as `cursor` for the page after this one (absent on the last page or when the order has no keyset). */
  next_cursor?: string;
}

const optInt = z.coerce.number().int().optional();
export const LogListQuery = z.object({
  log_type: optInt,
  start_timestamp: optInt,
  end_timestamp: optInt,
  model_name: text().max(191).optional(),
  username: text().max(64).optional(),
  token_name: text().max(64).optional(),
  channel_id: optInt,
  channel: optInt,
  source_ip: text().max(64).optional(),
  /**
   * Keyset paging: the `next_cursor` of the previous page. Lists ordered by one of created_at, id or
   * quota (the console's default is -created_at) then continue after that row without an offset.
   */
  cursor: text()
    .regex(/^-?\d{1,16}_\d{1,16}$/, 'cursor must be the next_cursor of an earlier page')
    .optional(),
});
export type LogListQuery = z.infer<typeof LogListQuery>;

export const DeleteLogsQuery = z.object({
  target_timestamp: z.coerce.number({ error: 'target timestamp is required' }).int().positive('target timestamp is required'),
  /** `true`: answer at once with the deletion's progress record instead of the count when done. */
  background: z
    .enum(['true', 'false', '1', '0'], { error: 'background: true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** One opt-in capture rule: requests of this user, token or channel are captured until `until` (unix seconds). */
export const CaptureRule = z.object({
  kind: z.enum(['user', 'token', 'channel'], { error: 'kind must be user, token or channel' }),
  id: z.number().int().positive(),
  until: z.number().int().positive(),
});
export type CaptureRule = z.infer<typeof CaptureRule>;
export const CaptureRules = z.array(CaptureRule).max(100, 'at most 100 capture rules');

export const CaptureQuery = z.object({ request_id: text().trim().min(1, 'request_id is required').max(64) });

/** A captured attempt of a relay request, redacted and size-capped (root only). */
export interface LogCapture {
  id: number;
  created_at: number;
  request_id: string;
  user_id: number;
  token_id: number;
  channel_id: number;
  status: number;
  request_headers: string;
  request_body: string;
  response_body: string;
  /** The answer was streamed (SSE or Gemini's JSON array): `response_body` is what the client received. */
  stream: boolean;
}

/** Progress of a log deletion (`DELETE /api/log/`), readable at `GET /api/log/deletion/:id`. */
export interface LogDeletion {
  id: number;
  target_timestamp: number;
  /** Log type deleted; 0 = every type. */
  type: number;
  /** Rows deleted so far. */
  deleted: number;
  status: 'running' | 'done' | 'failed';
  /** status ≠ running. */
  done: boolean;
  /** Why it stopped early, when it failed. */
  error: string;
  started_at: number;
  finished_at: number;
}
