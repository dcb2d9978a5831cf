import type { TaskFamily, TaskUpdate } from '../generic/family.js';
import { baseOf, callTaskUpstream, channelKey } from '../upstream.js';
import { klingBearer } from './jwt.js';
import { KLING_CHANNEL_TYPE, klingUpdate } from './mapping.js';

/** The Kling API: JWT bearer, `{code:0, data:{task_id}}` answers, one query per task. */
export const kling: TaskFamily = {
  platform: 'kling',
  channelTypes: [KLING_CHANNEL_TYPE],
  baseUrl: (row, ctx) => baseOf(row, ctx.config.KLING_BASE_URL),
  headers: (row) => ({ authorization: `Bearer ${klingBearer(channelKey(row))}` }),
  accepted(answer) {
    const j = answer.json;
    if (j?.code === 0 && typeof j.data?.task_id === 'string' && j.data.task_id) return { taskId: j.data.task_id };
    return { error: String(j?.message ?? answer.text).slice(0, 300) };
  },
  async fetch(ctx, channel, rows) {
    const updates = new Map<number, TaskUpdate>();
    const headers = { authorization: `Bearer ${klingBearer(channelKey(channel))}` };
    for (const row of rows) {
      const answer = await callTaskUpstream(channel, `${baseOf(channel, ctx.config.KLING_BASE_URL)}/v1/videos/${row.action}/${encodeURIComponent(row.task_id)}`, {
        method: 'GET',
        headers,
        timeoutMs: 5_000,
      }).catch(() => undefined);
      if (answer?.status === 200 && answer.json?.code === 0 && answer.json.data) updates.set(row.id, klingUpdate(answer.json.data));
    }
    return { updates, calls: rows.length };
  },
};
