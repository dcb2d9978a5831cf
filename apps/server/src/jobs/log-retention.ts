import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { startLogDeletion } from '../console/log/deletion.js';
import type { JobDef } from './runner.js';

const DAY = 86_400;

/**
 * Deletes log rows of every type older than LogRetentionDays (0 keeps everything) as a durable log
 * deletion job (console/log/deletion.ts: id-ranged batches that yield to the relay, resumed after a
 * restart), then (SQLite) hands the freed pages back. While a console deletion runs it waits a day.
 */
export async function pruneLogsOnce(ctx: AppContext, now: Date): Promise<string> {
  const days = ctx.options.get('LogRetentionDays');
  if (days <= 0) return 'retention off (LogRetentionDays = 0)';
  const cutoff = Math.floor(now.getTime() / 1000) - days * DAY;
  try {
    const { done } = await startLogDeletion(ctx, cutoff, 0);
    return `deleted ${await done} log rows older than ${days} days`;
  } catch (error) {
    if (error instanceof HubError && error.status === 409) return `skipped: ${error.message}`;
    throw error;
  }
}

export function logRetentionJob(): JobDef {
  return { name: 'log_retention', schedule: { cron: '30 3 * * *', label: 'daily 03:30' }, run: (c, now) => pruneLogsOnce(c, now) };
}
