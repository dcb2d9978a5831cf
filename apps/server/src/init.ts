import type { AppContext } from './app-context.js';
import { ensureRootUser } from './console/user/seed.js';
import { seedUserGroups } from './console/user-group/service.js';
import { createRelayState } from './relay/pipeline/relay-state.js';
import { attachRelayState } from './relay/state.js';
import { seedModelOwners } from './console/price/service.js';
import { startInvoiceJob } from './console/dashboard/invoice-service.js';
import { startBot } from './bot/index.js';
import { startQuotaAlerts } from './notify/user-alerts.js';

/**
 * Start-up work after migrations and before routes: seeding, cache warm-up,
 * batch writers. Each area adds one call here.
 */
export async function initServices(ctx: AppContext): Promise<void> {
  if (ctx.config.NODE_TYPE === 'master') {
    await seedUserGroups(ctx);
    await ensureRootUser(ctx);
    await seedModelOwners(ctx);
    if (ctx.config.USER_INVOICE_MONTH) startInvoiceJob(ctx);
    if (ctx.config.TG_BOT_API_KEY) await startBot(ctx);
    startQuotaAlerts(ctx);
  }
  attachRelayState(ctx, await createRelayState(ctx));
}
