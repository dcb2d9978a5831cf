import { setImmediate as yieldToRelay } from 'node:timers/promises';
import type { AppContext } from '../app-context.js';
import { deleteLogsByIds, logIdsBefore } from '../db/repos/log-retention.js';
import type { JobDef } from './runner.js';

const BATCH = 1000;
const DAY = 86_400;

/**
 * Deletes log rows older than LogRetentionDays (0 keeps everything), a thousand at a time by id,
 * so each statement is short and the relay's batched inserts interleave with it.
 */
export async function pruneLogsOnce(ctx: AppContext, now: Date, batch = BATCH): Promise<string> {
  const days = ctx.options.get('LogRetentionDays');
  if (days <= 0) return 'retention off (LogRetentionDays = 0)';
  const cutoff = Math.floor(now.getTime() / 1000) - days * DAY;
  let deleted = 0;
  for (;;) {
    const ids = await logIdsBefore(ctx.db, cutoff, batch);
    if (ids.length) deleted += await deleteLogsByIds(ctx.db, ids);
    if (ids.length < batch) break;
    await yieldToRelay();
  }
  return `deleted ${deleted} log rows older than ${days} days`;
}

export function logRetentionJob(): JobDef {
  return { name: 'log_retention', schedule: { cron: '30 3 * * *', label: 'daily 03:30' }, run: (c, now) => pruneLogsOnce(c, now) };
}
