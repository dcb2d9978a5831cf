import { HubError } from '../../../common/errors.js';
import type { TaskPlan, TaskUpdate } from '../generic/family.js';

export const DEFAULT_VIDEO = { model: 'sora-2', seconds: '4', size: '720x1280' };

const bad = (message: string) => new HubError(400, message, { code: 'invalid_parameter' });

export interface VideoFields {
  model?: string;
  prompt?: string;
  seconds?: string;
  size?: string;
}

/** Reads the fields a video is billed on, checked (the upstream validates the rest). */
export function videoFields(f: Record<string, unknown>): Required<VideoFields> {
  const model = f.model ?? DEFAULT_VIDEO.model;
  const seconds = String(f.seconds ?? DEFAULT_VIDEO.seconds);
  const size = f.size ?? DEFAULT_VIDEO.size;
  if (typeof model !== 'string' || !/^[\w.:-]{1,64}$/.test(model)) throw bad('model is invalid');
  if (!/^[1-9]\d{0,2}$/.test(seconds)) throw bad('seconds must be a whole number of seconds, e.g. "4"');
  if (typeof size !== 'string' || !/^\d{2,5}x\d{2,5}$/.test(size)) throw bad('size must look like 720x1280');
  if (typeof f.prompt !== 'string' || !f.prompt.trim()) throw bad('prompt is required');
  return { model, seconds, size, prompt: f.prompt };
}

/**
 * A video job priced per second: the price record `<model>_<size>` when there is one, else
 * `<model>` (relay.md §6 beyond the original; pitfalls "video tasks mispriced").
 */
export function videoPlan(f: Required<VideoFields>, priced: (model: string) => boolean, body: Record<string, unknown>, raw?: { bytes: Buffer; contentType: string }): TaskPlan {
  const sized = `${f.model}_${f.size}`;
  return {
    action: 'generate',
    model: f.model,
    priceModel: priced(sized) ? sized : f.model,
    units: Number(f.seconds),
    path: '/v1/videos',
    body,
    rawBody: raw,
    properties: { prompt: f.prompt, model: f.model, seconds: f.seconds, size: f.size },
  };
}

const STATUS: Readonly<Record<string, string>> = { queued: 'QUEUED', in_progress: 'IN_PROGRESS', completed: 'SUCCESS', failed: 'FAILURE' };

/** An OpenAI video object → row fields. */
export function videoUpdate(v: Record<string, any>): TaskUpdate {
  const status = STATUS[String(v.status)] ?? 'UNKNOWN';
  const progress = typeof v.progress === 'number' ? v.progress : 0;
  return {
    status,
    progress: status === 'SUCCESS' ? 100 : progress,
    failReason: status === 'FAILURE' ? String(v.error?.message || v.error?.code || 'failed') : undefined,
    data: v,
    finishTime: typeof v.completed_at === 'number' ? v.completed_at : undefined,
  };
}
