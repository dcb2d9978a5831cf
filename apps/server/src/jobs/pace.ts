import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../app-context.js';

/** POLLING_INTERVAL between channels, so a run does not hit every upstream at once. */
export async function pace(ctx: AppContext, index: number): Promise<void> {
  const seconds = ctx.config.POLLING_INTERVAL;
  if (index > 0 && seconds > 0) await sleep(seconds * 1000, undefined, { ref: false });
}
