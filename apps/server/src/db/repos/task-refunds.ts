import { sql } from 'kysely';
import { LOG_TYPE, type LogMessage } from '@one-hub/contract';
import type { Db } from '../index.js';
import { nowSeconds } from '../../common/time.js';
import { transact } from '../retry.js';
import { parseJsonOr } from '../../common/json.js';
import { upsertStatistics } from './log-writes.js';

export interface FailedTask {
  table: 'midjourneys' | 'tasks';
  id: number;
  userId: number;
  tokenId: number;
  channelId: number;
  quota: number;
  reason: string;
  /** Log text and its message key, e.g. `构图失败 <id>，补偿 <amount>`. */
  message: { content: string; msg: LogMessage };
  /** More for the log row's metadata. */
  note?: Record<string, unknown>;
  /** The task row's `charge_stat`: the roll-up row its charge was counted in (null: not counted, or an older row). */
  chargeStat?: string | null;
}

/** The roll-up key a task row's `charge_stat` names, when it names one. */
function chargeStatOf(raw: string | null | undefined): { date: string; model_name: string } | null {
  const s = parseJsonOr<{ date?: unknown; model_name?: unknown } | null>(raw ?? null, null);
  return s && typeof s.date === 'string' && typeof s.model_name === 'string' ? { date: s.date, model_name: s.model_name } : null;
}

/**
 * Ends a pending task as FAILURE and gives its charge back to the user and the token it came
 * from, reversing the used-quota counters and the roll-ups the charge was counted in (so every
 * chart, dashboard and export sums net of refunds), with a log row — all in one transaction, and
 * only if this call is the one that ended the task (a finished row is never refunded twice).
 */
export async function failAndRefund(db: Db, t: FailedTask): Promise<boolean> {
  return transact(db, async (trx) => {
    const ended =
      t.table === 'midjourneys'
        ? await trx
            .updateTable('midjourneys')
            .set({ status: 'FAILURE', progress: '100%', fail_reason: t.reason, finish_time: Date.now() })
            .where('id', '=', t.id)
            .where('progress', '<>', '100%')
            .executeTakeFirst()
        : await trx
            .updateTable('tasks')
            .set({ status: 'FAILURE', progress: 100, fail_reason: t.reason, finish_time: nowSeconds(), updated_at: nowSeconds() })
            .where('id', '=', t.id)
            .where('progress', '<>', 100)
            .executeTakeFirst();
    if (Number(ended.numUpdatedRows) !== 1) return false;
    if (t.quota <= 0) return true;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${t.quota}`, used_quota: sql`used_quota - ${t.quota}` })
      .where('id', '=', t.userId)
      .execute();
    await trx
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota + ${t.quota}`, used_quota: sql`used_quota - ${t.quota}` })
      .where('id', '=', t.tokenId)
      .where('unlimited_quota', '<>', 1)
      .execute();
    await trx.updateTable('channels').set({ used_quota: sql`used_quota - ${t.quota}` }).where('id', '=', t.channelId).execute();
    const stat = chargeStatOf(t.chargeStat);
    if (stat) {
      const refused = await upsertStatistics(trx, [
        { ...stat, user_id: t.userId, channel_id: t.channelId, request_count: 0, quota: -t.quota, prompt_tokens: 0, completion_tokens: 0, request_time: 0 },
      ]);
      if (refused) throw refused;
    }
    const user = await trx.selectFrom('users').select('username').where('id', '=', t.userId).executeTakeFirst();
    await trx
      .insertInto('logs')
      .values({ type: LOG_TYPE.system, created_at: nowSeconds(), user_id: t.userId, username: user?.username ?? '', token_id: t.tokenId, channel_id: t.channelId, quota: t.quota, content: t.message.content, metadata: JSON.stringify({ msg: t.message.msg, ...t.note }) })
      .execute();
    return true;
  });
}
