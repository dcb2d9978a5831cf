import { z } from 'zod';
import { text } from './format/text.js';

/** A Midjourney task row (api.md §25); times are epoch milliseconds. */
export interface MidjourneyTask {
  id: number;
  code: number;
  user_id: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  /** 0 in a user's own list. */
  channel_id: number;
  /** What the balance paid (0 when a plan paid). */
  quota: number;
  /** What a subscription plan's window paid (0 when the balance paid). */
  plan_quota: number;
  buttons: string;
  properties: string;
  mode?: string;
  token_id: number;
}

/** An async (Suno, Kling) task row; times are epoch seconds. */
export interface AsyncTask {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  /** 0 in a user's own list. */
  channel_id: number;
  /** What the balance paid (0 when a plan paid). */
  quota: number;
  /** What a subscription plan's window paid (0 when the balance paid). */
  plan_quota: number;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: number;
  properties: unknown;
  data: unknown;
  notify_hook: string;
  token_id: number;
}

/** api.md §2.15, §2.16 */
export const TASK_PLATFORMS = ['suno', 'kling', 'videos'] as const;
export const TASK_STATUSES = ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN'] as const;
export const MJ_ACTIONS = [
  'IMAGINE', 'DESCRIBE', 'BLEND', 'UPSCALE', 'VARIATION', 'REROLL', 'INPAINT', 'MODAL', 'ZOOM',
  'CUSTOM_ZOOM', 'SHORTEN', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'SWAP_FACE', 'UPLOAD',
] as const;
export const MJ_STATUSES = ['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS', 'FAILURE', 'SUCCESS'] as const;

const optInt = z.coerce.number().int().optional();
const optText = (max: number) => text().trim().max(max).optional();
/** A query key given once or repeated. */
const intList = z
  .union([z.coerce.number().int(), z.array(z.coerce.number().int())])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));

/** GET /api/mj/ and /api/mj/self; timestamps in milliseconds on submit_time. */
export const MidjourneyListQuery = z.object({
  channel_id: optInt,
  user_id: optInt,
  status: optText(20),
  mj_id: optText(191),
  token_id: optInt,
  start_timestamp: optInt,
  end_timestamp: optInt,
});

/** GET /api/task/ and /api/task/self; timestamps in seconds on submit_time. */
export const TaskListQuery = z.object({
  platform: optText(30),
  channel_id: optInt,
  task_id: optText(50),
  user_id: optInt,
  user_ids: intList,
  action: optText(40),
  status: optText(20),
  token_id: optInt,
  start_timestamp: optInt,
  end_timestamp: optInt,
});

/** GET /api/task/:id/result/:n and the relay's /task/result/:id/:n: the n-th result file of a task. */
export const TaskResultParam = z.object({
  id: z.coerce.number().int().positive(),
  n: z.coerce.number().int().min(0).max(999),
});
