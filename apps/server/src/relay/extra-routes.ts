import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { openAIErrorBody, toHubError } from '../http/errors.js';
import { registerLegacyBilling } from './legacy/billing.js';
import { registerPassthrough } from './legacy/passthrough.js';
import { relayState } from './state.js';
import { registerRealtime } from './realtime/index.js';
import { registerTaskRoutes } from './tasks/routes.js';
import { registerResponsesWebSocket } from './responses/ws.js';
import { dispatchUpgrades } from './upgrade.js';

/**
 * Relay routes outside the model pipeline (legacy billing emulation, pass-through endpoints, the realtime and Responses WebSockets), in their own
 * scope so their body parsing and error handling stay separate from the doors.
 * Errors answer in OpenAI's shape with the request id appended.
 */
export async function registerRelayExtras(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    if (hub.status >= 500 && !(error instanceof HubError)) req.log.error({ err: error }, 'relay request failed');
    if (hub.retryAfter) reply.header('Retry-After', String(hub.retryAfter));
    const body = openAIErrorBody(hub);
    body.error.message = `${hub.message} (request id: ${req.id})`;
    return reply.status(hub.status).send(body);
  });
  registerLegacyBilling(app, ctx);
  await app.register(async (scope) => registerPassthrough(scope, relayState(ctx)));
  dispatchUpgrades(app, { '/v1/realtime': registerRealtime(app, ctx), '/v1/responses': registerResponsesWebSocket(app, ctx) });
  // The upgrade handler takes WebSocket handshakes before Fastify sees them; a plain GET lands here.
  app.get('/v1/realtime', async () => {
    throw new HubError(426, '/v1/realtime is a WebSocket: connect with Upgrade: websocket', { code: 'upgrade_required' });
  });
  app.get('/v1/responses', async () => {
    throw new HubError(426, 'GET /v1/responses is the Responses WebSocket: connect with Upgrade: websocket, or POST to create a response', { code: 'upgrade_required' });
  });
  await app.register(async (scope) => registerTaskRoutes(scope, relayState(ctx)));
}
