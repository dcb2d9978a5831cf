import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { globalApiLimiter } from '../http/rate-limit.js';
import { registerStatusRoutes } from './status/routes.js';
import { registerUserRoutes } from './user/routes.js';
import { registerUserGroupRoutes } from './user-group/routes.js';
import { registerOptionRoutes } from './option/routes.js';
import { registerRedemptionRoutes } from './redemption/routes.js';
import { registerTokenRoutes } from './token/routes.js';
import { registerChannelRoutes } from './channel/routes.js';
import { registerLogRoutes } from './log/routes.js';
import { registerPriceRoutes } from './price/routes.js';
import { registerDashboardRoutes } from './dashboard/routes.js';
import { registerChannelCheckRoutes } from '../relay/channel-check/routes.js';
import { registerPaymentRoutes } from './payment/routes.js';
import { registerPaymentNotifyRoute } from './payment/notify-route.js';
import { registerTelegramRoutes } from './telegram/routes.js';
import { registerTaskRoutes } from './task/routes.js';
import { registerJobRoutes } from './jobs/routes.js';

/** Registers every console area under /api. One line per area. */
export async function registerConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('preHandler', globalApiLimiter(ctx));
  registerStatusRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerUserGroupRoutes(app, ctx);
  registerOptionRoutes(app, ctx);
  registerRedemptionRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerChannelRoutes(app, ctx);
  registerLogRoutes(app, ctx);
  registerPriceRoutes(app, ctx);
  registerDashboardRoutes(app, ctx);
  registerChannelCheckRoutes(app, ctx);
  registerPaymentRoutes(app, ctx);
  await registerPaymentNotifyRoute(app, ctx);
  registerTelegramRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerJobRoutes(app, ctx);
}
