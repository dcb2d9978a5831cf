import { HubError } from '../../../common/errors.js';
import type { TaskPlan, TaskUpdate } from '../generic/family.js';

export const KLING_CHANNEL_TYPE = 53;
export const KLING_ACTIONS = ['text2video', 'image2video'] as const;

const bad = (message: string) => new HubError(400, message, { code: 'invalid_parameter' });

/** `/kling/v1/<class>/<action>`: defaults and the price model `kling-video_<model>_<mode>_<duration>` (relay.md §6.2). */
export function klingPlan(cls: string, action: string, body: Record<string, unknown>): TaskPlan {
  if (cls !== 'videos') throw bad('class must be videos');
  if (!(KLING_ACTIONS as readonly string[]).includes(action)) throw bad('action must be text2video or image2video');
  const duration = String(body.duration ?? '5');
  if (duration !== '5' && duration !== '10') throw bad('duration must be 5 or 10');
  const model = body.model_name ?? body.model ?? 'kling-v1';
  const mode = body.mode ?? 'std';
  if (typeof model !== 'string' || !/^[\w.-]{1,64}$/.test(model)) throw bad('model_name is invalid');
  if (mode !== 'std' && mode !== 'pro') throw bad('mode must be std or pro');
  if (action === 'text2video' && (typeof body.prompt !== 'string' || !body.prompt)) throw bad('prompt is required');
  if (action === 'image2video' && (typeof body.image !== 'string' || !body.image)) throw bad('image is required');
  const upstream: Record<string, unknown> = { ...body, model_name: model, mode, duration };
  delete upstream.model;
  delete upstream.callback_url; // callbacks would reach the caller's URL with upstream data; the poller reads results
  return {
    action,
    model: `kling-video_${model}_${mode}_${duration}`,
    path: `/v1/${cls}/${action}`,
    body: upstream,
    properties: { prompt: body.prompt ?? '', model_name: model, mode, duration },
  };
}

const STATUS: Readonly<Record<string, string>> = { submitted: 'SUBMITTED', processing: 'IN_PROGRESS', succeed: 'SUCCESS', failed: 'FAILURE' };

/** A Kling task (`data` of the query answer) → row fields. */
export function klingUpdate(d: Record<string, any>): TaskUpdate {
  const status = STATUS[String(d.task_status)] ?? 'UNKNOWN';
  return {
    status,
    progress: status === 'SUCCESS' ? 100 : status === 'IN_PROGRESS' ? 50 : 10,
    failReason: status === 'FAILURE' ? String(d.task_status_msg || 'failed') : undefined,
    data: d,
    startTime: undefined,
    finishTime: status === 'SUCCESS' && typeof d.updated_at === 'number' ? Math.floor(d.updated_at / 1000) : undefined,
  };
}
