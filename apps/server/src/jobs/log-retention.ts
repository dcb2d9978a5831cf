import type { AppContext } from '../app-context.js';
import { deleteBatch, deleteLogsInBatches } from '../console/log/housekeeping.js';
import type { JobDef } from './runner.js';

const DAY = 86_400;

/**
 * Deletes log rows older than LogRetentionDays (0 keeps everything) in short batches by id that
 * yield to the relay between them, then (SQLite) hands the freed pages back to the file system.
 */
export async function pruneLogsOnce(ctx: AppContext, now: Date, batch = deleteBatch(ctx)): Promise<string> {
  const days = ctx.options.get('LogRetentionDays');
  if (days <= 0) return 'retention off (LogRetentionDays = 0)';
  const cutoff = Math.floor(now.getTime() / 1000) - days * DAY;
  const deleted = await deleteLogsInBatches(ctx, cutoff, undefined, undefined, batch);
  return `deleted ${deleted} log rows older than ${days} days`;
}

export function logRetentionJob(): JobDef {
  return { name: 'log_retention', schedule: { cron: '30 3 * * *', label: 'daily 03:30' }, run: (c, now) => pruneLogsOnce(c, now) };
}
