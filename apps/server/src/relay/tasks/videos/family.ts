import type { ChannelRow } from '../../../db/repos/channels.js';
import { defaultBaseUrl } from '../../providers/index.js';
import type { TaskFamily, TaskUpdate } from '../generic/family.js';
import { baseOf, callTaskUpstream, channelKey } from '../upstream.js';
import { videoUpdate } from './mapping.js';

export const OPENAI = 1;
export const AZURE = 3;

/** `<base>/v1/videos…` on OpenAI; Azure serves the same API under `<resource>/openai/v1` with an `api-key`. */
export const videoBase = (row: ChannelRow) => (row.type === AZURE ? `${baseOf(row)}/openai` : baseOf(row, defaultBaseUrl(OPENAI)));
export const videoHeaders = (row: ChannelRow): Record<string, string> =>
  row.type === AZURE ? { 'api-key': channelKey(row) } : { authorization: `Bearer ${channelKey(row)}` };

/** OpenAI's video jobs (`/v1/videos`), on OpenAI and Azure channels; one status query per job. */
export const videos: TaskFamily = {
  platform: 'videos',
  channelTypes: [OPENAI, AZURE],
  keepAnswer: true,
  baseUrl: videoBase,
  headers: videoHeaders,
  accepted(answer) {
    const j = answer.json;
    if (j?.object === 'video' && typeof j.id === 'string' && j.id) return { taskId: j.id };
    return { error: String(j?.error?.message ?? answer.text).slice(0, 300) };
  },
  async fetch(_ctx, channel, rows) {
    const updates = new Map<number, TaskUpdate>();
    for (const row of rows) {
      const answer = await callTaskUpstream(channel, `${videoBase(channel)}/v1/videos/${encodeURIComponent(row.task_id)}`, {
        method: 'GET',
        headers: videoHeaders(channel),
        timeoutMs: 5_000,
      }).catch(() => undefined);
      if (answer?.status === 200 && answer.json?.object === 'video') updates.set(row.id, videoUpdate(answer.json));
    }
    return { updates, calls: rows.length };
  },
};
