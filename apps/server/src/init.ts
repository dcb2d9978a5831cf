import type { AppContext } from './app-context.js';

/**
 * Start-up work after migrations and before routes: seeding, cache warm-up,
 * batch writers. Each area adds one call here.
 */
export async function initServices(ctx: AppContext): Promise<void> {
  void ctx;
}
