import { unsettledMessageBatches } from '../../db/repos/message-batches.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { RoundResult } from '../tasks/poller.js';
import { callTaskUpstream } from '../tasks/upstream.js';
import { channelOf, batchPath, headersFor, observeBatch, settleBatch } from './service.js';

const ROUND_LIMIT = 500;

/**
 * One polling round of Message Batches: each batch not billed yet is retrieved from its channel
 * and, once ended, billed from its results — whether or not its creator ever asks again, and
 * after a restart (the rows are the state). A batch whose channel was deleted can no longer be
 * read: its hold goes back whole.
 */
export function batchRound(state: RelayState): () => Promise<RoundResult> {
  return async () => {
    const rows = await unsettledMessageBatches(state.ctx.db, ROUND_LIMIT);
    let ended = 0;
    let upstreamCalls = 0;
    for (const row of rows) {
      const channel = await channelOf(state, row.channel_id);
      try {
        if (!channel) {
          if (await settleBatch(state, row, undefined)) ended++;
          continue;
        }
        upstreamCalls++;
        const answer = await callTaskUpstream(channel, batchPath(channel, `/${encodeURIComponent(row.batch_id)}`), { method: 'GET', headers: headersFor(channel), timeoutMs: 60_000 });
        if (answer.status !== 200 || !answer.json || typeof answer.json !== 'object') {
          state.ctx.log.warn({ batch: row.batch_id, channel: row.channel_id, status: answer.status }, 'message batch poll failed');
          continue;
        }
        await observeBatch(state, row, channel, answer.json);
        if (answer.json.processing_status === 'ended') ended++;
      } catch (error) {
        state.ctx.log.warn({ err: error, batch: row.batch_id }, 'message batch poll failed');
      }
    }
    return { pending: rows.length - ended, tasks: rows.length, upstreamCalls };
  };
}
