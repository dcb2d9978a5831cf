import type { AppContext } from '../app-context.js';
import { syncFromList } from '../console/price/remote-sync.js';
import type { JobDef } from './runner.js';
import { emitJobNotice } from './notices.js';

/**
 * One remote price sync in the configured mode, through the same code as the console's
 * preview/apply (locked prices are never replaced; a change is audited as `system`).
 */
export async function syncPricesOnce(ctx: AppContext): Promise<string> {
  const { UPDATE_PRICE_SERVICE: url, AUTO_PRICE_UPDATES_MODE: mode } = ctx.config;
  if (mode === 'system') return 'mode system: nothing synced';
  try {
    const diff = await syncFromList(ctx, url, mode);
    return `${diff.fetched} prices read, mode ${mode}: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed`;
  } catch (error) {
    emitJobNotice(ctx, { job: 'price_sync', title: 'Price sync failed', text: (error as Error).message });
    throw error;
  }
}

/** AUTO_PRICE_UPDATES with a mode other than `system`: sync every AUTO_PRICE_UPDATES_INTERVAL minutes. */
export function priceSyncJob(ctx: AppContext): JobDef {
  const on = ctx.config.AUTO_PRICE_UPDATES && ctx.config.AUTO_PRICE_UPDATES_MODE !== 'system';
  return { name: 'price_sync', schedule: on ? { everySeconds: ctx.config.AUTO_PRICE_UPDATES_INTERVAL * 60 } : undefined, run: (c) => syncPricesOnce(c) };
}
