import type { FastifyInstance } from 'fastify';
import { HubError } from '../../common/errors.js';
import { toHubError } from '../../http/errors.js';
import { withRequestId } from '../../egress/failure.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { registerMidjourney } from './midjourney/routes.js';
import { taskPollers } from './registry.js';
import { registerSuno } from './suno/routes.js';
import { registerKling } from './kling/routes.js';
import { registerVideos } from './videos/routes.js';
import { registerRecraft } from './recraft/routes.js';
import { serveResult } from './generic/links.js';

type Shape = (hub: HubError, message: string) => unknown;

/** A task family's errors in its own wire shape, the request id appended (failures arrive mapped by egress/failure.ts). */
function errorsShaped(app: FastifyInstance, shape: Shape): void {
  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    if (hub.status >= 500 && !(error instanceof HubError)) req.log.error({ err: error }, 'task request failed');
    if (hub.retryAfter) reply.header('Retry-After', String(hub.retryAfter));
    return reply.status(hub.status).send(shape(hub, withRequestId(hub.message, req.id)));
  });
}

/** Midjourney-Proxy's `{code, description, type}`. */
const midjourneyShape: Shape = (hub, description) => {
  const code = Number(hub.code);
  return { code: Number.isFinite(code) ? code : hub.status >= 500 ? 500 : 4, description, type: hub.type };
};
/** Suno and Kling (relay.md §2): `{code: "<string>", message, data: null}` with the error's status. */
const sunoKlingShape: Shape = (hub, message) => ({ code: hub.code ?? 'error', message, data: null });

/** The async task routes (relay.md §6) and their pollers. */
export async function registerTaskRoutes(app: FastifyInstance, state: RelayState): Promise<void> {
  taskPollers(state);
  await app.register(async (scope) => {
    errorsShaped(scope, midjourneyShape);
    registerMidjourney(scope, state);
  });
  await app.register(async (scope) => {
    errorsShaped(scope, sunoKlingShape);
    registerSuno(scope, state);
  });
  // Suno and Kling result files, through the gateway (upstream hosts never reach a client).
  app.get('/task/result/:id/:n', (req, reply) => serveResult(state, req, reply));
  await app.register(async (scope) => {
    errorsShaped(scope, sunoKlingShape);
    registerKling(scope, state);
  });
  await app.register(async (scope) => registerVideos(scope, state));
  await app.register(async (scope) => registerRecraft(scope, state));
}
