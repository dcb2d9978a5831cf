import { LOG_TYPE, logMessage, type LogMessageArgs, type LogMessageKey } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../common/time.js';
import { insertLog } from '../../db/repos/logs.js';
import { findUserById } from '../../db/repos/users.js';

/** How a quota amount reads in log text: currency or points, per DisplayInCurrencyEnabled. */
export function quotaText(ctx: AppContext, quota: number): string {
  if (ctx.options.get('DisplayInCurrencyEnabled')) {
    const usd = quota / ctx.options.get('QuotaPerUnit');
    return `＄${usd.toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}

type LogKind = 'topup' | 'manage' | 'system';

export async function writeUserLog(
  ctx: AppContext,
  entry: { userId: number; kind: LogKind; message: LogMessageKey; args?: LogMessageArgs; quota?: number; ip?: string },
): Promise<void> {
  const user = await findUserById(ctx.db, entry.userId);
  const { content, msg } = logMessage(entry.message, entry.args, (q) => quotaText(ctx, q));
  await insertLog(ctx.db, {
    user_id: entry.userId,
    username: user?.username ?? '',
    created_at: nowSeconds(),
    type: LOG_TYPE[entry.kind],
    content,
    metadata: JSON.stringify({ msg }),
    quota: entry.quota ?? 0,
    source_ip: entry.ip ?? '',
  });
}
