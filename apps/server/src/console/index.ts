import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';

/** Registers every console area under /api. One line per area. */
export async function registerConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  void app;
}
