import type { TaskRow } from '../../../db/repos/tasks.js';
import type { TaskFamily, TaskUpdate } from '../generic/family.js';
import { baseOf, callTaskUpstream, channelKey } from '../upstream.js';
import { SUNO_CHANNEL_TYPE, sunoUpdate } from './mapping.js';

/** A Suno API proxy: bearer key, `{code:"success", data}` answers, one batch fetch per channel. */
export const suno: TaskFamily = {
  platform: 'suno',
  channelTypes: [SUNO_CHANNEL_TYPE],
  baseUrl: (row) => baseOf(row),
  headers: (row) => ({ authorization: `Bearer ${channelKey(row)}` }),
  accepted(answer) {
    const j = answer.json;
    if (j?.code === 'success' && typeof j.data === 'string' && j.data) return { taskId: j.data };
    return { error: String(j?.message ?? answer.text).slice(0, 300) };
  },
  async fetch(_ctx, channel, rows: TaskRow[]) {
    const answer = await callTaskUpstream(channel, `${baseOf(channel)}/suno/fetch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${channelKey(channel)}` },
      body: { ids: rows.map((r) => r.task_id) },
      timeoutMs: 5_000,
    });
    const updates = new Map<number, TaskUpdate>();
    const list = answer.status === 200 && answer.json?.code === 'success' && Array.isArray(answer.json.data) ? answer.json.data : [];
    const byTaskId = new Map(rows.map((r) => [r.task_id, r]));
    for (const t of list) {
      const row = t && byTaskId.get(String(t.task_id));
      if (row) updates.set(row.id, sunoUpdate(t));
    }
    return { updates, calls: 1 };
  },
};
