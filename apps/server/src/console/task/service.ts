import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROLE, type AsyncTask, type MidjourneyTask } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { findChannelById } from '../../db/repos/channels.js';
import { findTaskById } from '../../db/repos/task-rows.js';
import { resultUrls, streamResult } from '../../relay/tasks/results.js';
import { videoBase, videoHeaders } from '../../relay/tasks/videos/family.js';
import { parseJsonOr } from '../../common/json.js';
import type { MidjourneyRow, TaskRow } from '../../db/repos/tasks.js';
import { withLinks } from '../../relay/tasks/results.js';

/** The console's path to a task's n-th result file, streamed by the server (upstream hosts stay on the server). */
export const consoleResultPath = (row: TaskRow, n: number) => `/api/task/${row.id}/result/${n}`;

/** A stored JSON text with every upstream URL replaced by `link` (Midjourney-Proxy properties may carry the image URL). */
function linkedText(text: string | null, link: () => string): string {
  if (!text) return '';
  const value = parseJsonOr<unknown>(text, undefined);
  return value === undefined ? '' : JSON.stringify(withLinks(value, link));
}

/** `self`: the caller's own list, which never names the channel. */
export function toMidjourneyJson(row: MidjourneyRow, self: boolean): MidjourneyTask {
  const task: MidjourneyTask = {
    id: row.id,
    code: row.code,
    user_id: row.user_id,
    action: row.action,
    mj_id: row.mj_id,
    prompt: row.prompt ?? '',
    prompt_en: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    image_url: row.image_url ? `/api/mj/image/${row.id}` : '',
    status: row.status,
    progress: row.progress,
    fail_reason: row.fail_reason ?? '',
    channel_id: self ? 0 : row.channel_id,
    quota: row.quota,
    plan_quota: row.plan_quota,
    buttons: row.buttons ?? '',
    properties: linkedText(row.properties, () => `/api/mj/image/${row.id}`),
    token_id: row.token_id,
  };
  if (row.mode) task.mode = row.mode;
  return task;
}

/** Drops every `user_id` key, however deep: Suno music results carry the upstream account's id. */
function withoutUserIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUserIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'user_id').map(([k, v]) => [k, withoutUserIds(v)]));
  }
  return value;
}

export function toTaskJson(row: TaskRow, self: boolean): AsyncTask {
  const data = parseJsonOr<unknown>(row.data, null);
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    task_id: row.task_id,
    platform: row.platform,
    user_id: row.user_id,
    channel_id: self ? 0 : row.channel_id,
    quota: row.quota,
    plan_quota: row.plan_quota,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    properties: parseJsonOr<unknown>(row.properties, null),
    // Result files play through the server for everyone; the upstream's user ids are dropped for owners.
    data: withLinks(self && row.platform === 'suno' ? withoutUserIds(data) : data, (n) => consoleResultPath(row, n)),
    notify_hook: self ? '' : (row.notify_hook ?? ''),
    token_id: row.token_id,
  };
}

type Viewer = { id: number; role: number };

/** A task its owner or an admin may see, with its channel; anyone else learns nothing (404). */
async function visibleTask(ctx: AppContext, viewer: Viewer, id: number) {
  const row = await findTaskById(ctx.db, id);
  if (!row || (row.user_id !== viewer.id && viewer.role < ROLE.admin)) throw apiError(404, 'task_not_found');
  return { row, channel: await findChannelById(ctx.db, row.channel_id) };
}

/** The n-th result file of a task (Suno audio, Kling video…), streamed from upstream by the server. */
export async function streamTaskResult(ctx: AppContext, viewer: Viewer, id: number, n: number, req: FastifyRequest, reply: FastifyReply) {
  const { row, channel } = await visibleTask(ctx, viewer, id);
  const url = resultUrls(parseJsonOr<unknown>(row.data, null))[n];
  if (!url) throw apiError(404, 'task_result_not_found');
  return streamResult(channel, url, req, reply);
}

/** A finished OpenAI video job's file, streamed from its channel. */
export async function streamVideoContent(ctx: AppContext, viewer: Viewer, id: number, req: FastifyRequest, reply: FastifyReply) {
  const { row, channel } = await visibleTask(ctx, viewer, id);
  if (row.platform !== 'videos' || row.status !== 'SUCCESS' || !channel) throw apiError(404, 'video_not_found');
  return streamResult(channel, `${videoBase(channel)}/v1/videos/${encodeURIComponent(row.task_id)}/content`, req, reply, videoHeaders(channel));
}
