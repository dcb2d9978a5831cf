import type { AppContext } from './app-context.js';
import { ensureRootUser } from './console/user/seed.js';
import { offerSetup } from './console/setup/service.js';
import { seedUserGroups } from './console/user-group/service.js';
import { createRelayState } from './relay/pipeline/relay-state.js';
import { attachRelayState } from './relay/state.js';
import { seedModelOwners } from './console/price/service.js';
import { startBot } from './bot/index.js';
import { startQuotaAlerts } from './notify/user-alerts.js';
import { relayJobNotices } from './notify/index.js';
import { startJobs } from './jobs/index.js';
import { sealPlainSecrets } from './console/auth/two-factor/service.js';

/**
 * Start-up work after migrations and before routes: seeding, cache warm-up,
 * batch writers. Each area adds one call here.
 */
export async function initServices(ctx: AppContext): Promise<void> {
  if (ctx.config.NODE_TYPE === 'master') {
    await seedUserGroups(ctx);
    // No root and no INITIAL_ROOT_PASSWORD: a one-time setup link in the log instead of a password.
    if (!(await ensureRootUser(ctx))) await offerSetup(ctx);
    await seedModelOwners(ctx);
    await sealPlainSecrets(ctx);
    if (ctx.config.TG_BOT_API_KEY) await startBot(ctx);
    startQuotaAlerts(ctx);
    relayJobNotices(ctx);
  }
  attachRelayState(ctx, await createRelayState(ctx));
  // Periodic work (channel tests, balances, prices, log retention, monthly bills): timers on the master only.
  await startJobs(ctx);
}
