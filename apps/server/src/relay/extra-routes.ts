import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { openAIErrorBody, toHubError } from '../http/errors.js';
import { registerLegacyBilling } from './legacy/billing.js';

/**
 * Relay routes outside the model pipeline (legacy billing emulation), in their own
 * scope so their body parsing and error handling stay separate from the doors.
 * Errors answer in OpenAI's shape with the request id appended.
 */
export async function registerRelayExtras(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.setErrorHandler((error, req, reply) => {
    const hub = toHubError(error);
    if (hub.status >= 500 && !(error instanceof HubError)) req.log.error({ err: error }, 'relay request failed');
    const body = openAIErrorBody(hub);
    body.error.message = `${hub.message} (request id: ${req.id})`;
    return reply.status(hub.status).send(body);
  });
  registerLegacyBilling(app, ctx);
}
