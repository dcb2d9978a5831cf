import { HubError } from '../../../common/errors.js';
import type { TaskPlan, TaskUpdate } from '../generic/family.js';

export const SUNO_CHANNEL_TYPE = 41;
const DEFAULT_MV = 'chirp-v3-0';
const STATUSES = new Set(['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN']);

const bad = (message: string) => new HubError(400, message, { code: 'invalid_parameter' });

/** `/suno/submit/music` (model = `mv`) and `/suno/submit/lyrics` (model `suno_lyrics`, prompt required). */
export function sunoPlan(action: string, body: Record<string, unknown>): TaskPlan {
  if (action === 'lyrics') {
    if (typeof body.prompt !== 'string' || !body.prompt.trim()) throw bad('prompt is required');
    return { action: 'LYRICS', model: 'suno_lyrics', path: '/suno/submit/lyrics', body, properties: { prompt: body.prompt } };
  }
  if (action !== 'music') throw new HubError(404, `unknown Suno action ${action.slice(0, 40)}`, { code: 'not_found' });
  const mv = body.mv === undefined ? DEFAULT_MV : body.mv;
  if (typeof mv !== 'string' || !mv) throw bad('mv must be a model name');
  let originTaskId: string | undefined;
  if (body.continue_clip_id !== undefined && body.continue_clip_id !== '') {
    if (typeof body.task_id !== 'string' || !body.task_id) throw bad('task_id is required with continue_clip_id');
    originTaskId = body.task_id;
  }
  const properties = { prompt: body.prompt ?? body.gpt_description_prompt ?? '', mv, title: body.title ?? '', tags: body.tags ?? '' };
  return { action: 'MUSIC', model: mv, path: '/suno/submit/music', body: { ...body, mv }, originTaskId, properties };
}

/** A Suno proxy task view (`/suno/fetch`) → row fields; progress arrives as `"<n>%"`. */
export function sunoUpdate(t: Record<string, unknown>): TaskUpdate {
  const status = typeof t.status === 'string' && STATUSES.has(t.status) ? t.status : 'UNKNOWN';
  const progress = Number.parseInt(String(t.progress ?? '0'), 10);
  return {
    status,
    progress: Number.isFinite(progress) ? progress : 0,
    failReason: typeof t.fail_reason === 'string' ? t.fail_reason : undefined,
    data: t.data,
    startTime: typeof t.start_time === 'number' ? t.start_time : undefined,
    finishTime: typeof t.finish_time === 'number' ? t.finish_time : undefined,
  };
}
