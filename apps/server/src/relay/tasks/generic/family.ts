import type { AppContext } from '../../../app-context.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import type { TaskRow } from '../../../db/repos/tasks.js';
import type { TaskAnswer } from '../upstream.js';

/** What a submission asks upstream for (pure, from the caller's request). */
export interface TaskPlan {
  action: string;
  /** Price and routing model. */
  model: string;
  /** Upstream path under the channel's base URL. */
  path: string;
  body: Record<string, unknown>;
  /** Priced under this name when it differs from the routing model. */
  priceModel?: string;
  /** Multipart bodies go upstream as received. */
  rawBody?: { bytes: Buffer; contentType: string };
  /** Price units (seconds of a video); 1 otherwise. */
  units?: number;
  /** An earlier task of the caller this one continues: its channel is used. */
  originTaskId?: string;
  properties: Record<string, unknown>;
}

/** One upstream view of a task, mapped to row fields. */
export interface TaskUpdate {
  status: string;
  progress: number;
  failReason?: string;
  data?: unknown;
  startTime?: number;
  finishTime?: number;
}

/** A task family stored in the `tasks` table: pure mappings plus its fetch (relay.md §6.2). */
export interface TaskFamily {
  platform: 'suno' | 'kling' | 'videos';
  channelTypes: number[];
  baseUrl(row: ChannelRow, ctx: AppContext): string;
  headers(row: ChannelRow): Record<string, string>;
  /** Keep the submission's answer as the task's data (it is the first view of the task). */
  keepAnswer?: boolean;
  /** The upstream task id of an accepted submission, or why it was refused. */
  accepted(answer: TaskAnswer): { taskId: string } | { error: string };
  /** Upstream views of pending tasks of one channel; answers the views found and the requests made. */
  fetch(ctx: AppContext, channel: ChannelRow, rows: TaskRow[]): Promise<{ updates: Map<number, TaskUpdate>; calls: number }>;
}
