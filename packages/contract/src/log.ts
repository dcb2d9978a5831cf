import { z } from 'zod';

export interface LogEntry {
  id: number;
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
}

const optInt = z.coerce.number().int().optional();
export const LogListQuery = z.object({
  log_type: optInt,
  start_timestamp: optInt,
  end_timestamp: optInt,
  model_name: z.string().max(191).optional(),
  username: z.string().max(64).optional(),
  token_name: z.string().max(64).optional(),
  channel_id: optInt,
  channel: optInt,
  source_ip: z.string().max(64).optional(),
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

/** Progress of a log deletion (`DELETE /api/log/`), readable at `GET /api/log/deletion/:id`. */
export interface LogDeletion {
  id: number;
  target_timestamp: number;
  /** Rows deleted so far. */
  deleted: number;
  done: boolean;
  /** Why it stopped early, when it failed. */
  error: string;
  started_at: number;
  finished_at: number;
}
