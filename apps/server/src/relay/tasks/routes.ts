import type { FastifyInstance } from 'fastify';
import { HubError } from '../../common/errors.js';
import { toHubError } from '../../http/errors.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { registerMidjourney } from './midjourney/routes.js';
import { taskPollers } from './registry.js';
import { registerSuno } from './suno/routes.js';
import { registerKling } from './kling/routes.js';
import { registerVideos } from './videos/routes.js';
import { registerRecraft } from './recraft/routes.js';
import { serveResult } from './generic/links.js';

/** Midjourney answers errors in Midjourney-Proxy's shape: `{code, description, type}`. */
function midjourneyErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    if (hub.status >= 500 && !(error instanceof HubError)) req.log.error({ err: error }, 'midjourney request failed');
    if (hub.retryAfter) reply.header('Retry-After', String(hub.retryAfter));
    const code = Number(hub.code);
    return reply.status(hub.status).send({ code: Number.isFinite(code) ? code : hub.status >= 500 ? 500 : 4, description: `${hub.message} (request id: ${req.id})`, type: hub.type });
  });
}

/** The async task routes (relay.md §6) and their pollers. */
export async function registerTaskRoutes(app: FastifyInstance, state: RelayState): Promise<void> {
  taskPollers(state);
  await app.register(async (scope) => {
    midjourneyErrors(scope);
    registerMidjourney(scope, state);
  });
  registerSuno(app, state);
  // Suno and Kling result files, through the gateway (upstream hosts never reach a client).
  app.get('/task/result/:id/:n', (req, reply) => serveResult(state, req, reply));
  registerKling(app, state);
  await app.register(async (scope) => registerVideos(scope, state));
  await app.register(async (scope) => registerRecraft(scope, state));
}
