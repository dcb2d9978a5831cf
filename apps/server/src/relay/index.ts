import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { openAIErrorBody, toHubError } from '../http/errors.js';
import type { Endpoint } from './providers/types.js';
import { handleRelay } from './pipeline/flow/handle.js';
import { describeModel, listModels } from './pipeline/routing/models.js';
import { relayState } from './state.js';
import { keepRawBody, readBody } from './pipeline/flow/raw-body.js';
import { jsonTooDeep, tooDeepMessage } from '../common/json-depth.js';
import { registerClaudeDoor, anthropicModelList } from './doors/claude.js';
import { fromGeminiClient, googleModel, googleModelList, registerGeminiDoor } from './doors/gemini.js';
import { anthropicErrorBody, googleErrorBody } from './doors/errors.js';
import { countResponsesInput } from './responses/input-tokens.js';
import { registerStoredResponses } from './responses/routes.js';
import { attachWebSocketTurn } from './responses/ws-door.js';

type ErrorShape = (hub: HubError, message: string) => unknown;
const openAIShape: ErrorShape = (hub, message) => {
  const body = openAIErrorBody(hub);
  body.error.message = message;
  return body;
};

/** Each door answers errors in its own wire format, with the request id appended. */
function errorHandler(shape: ErrorShape) {
  return (error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const hub = toHubError(error);
    if (hub.status >= 500 && !(error instanceof HubError)) req.log.error({ err: error }, 'relay request failed');
    if (hub.retryAfter) reply.header('Retry-After', String(hub.retryAfter));
    return reply.status(hub.status).send(shape(hub, `${hub.message} (request id: ${req.id})`));
  };
}

const RELAY_BODY_LIMIT = 64 * 1024 * 1024;

const POST_ENDPOINTS: Endpoint[] = [
  'chat/completions', 'completions', 'embeddings', 'moderations', 'images/generations', 'images/edits',
  'images/variations', 'audio/speech', 'audio/transcriptions', 'audio/translations', 'rerank', 'responses',
  'responses/compact',
];

/** Registers the relay paths (/v1 …). Errors answer in OpenAI's shape with the request id appended. */
export async function registerRelayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const state = relayState(ctx);
  // Multipart (audio, image edits) passes through untouched as bytes.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) => done(null, body));
  // JSON bodies keep their original bytes so an unchanged body is forwarded without re-serialising.
  app.addContentTypeParser('application/json', (_req, payload, done) =>
    readBody(payload, RELAY_BODY_LIMIT, (error, bytes) => {
      if (error) return done(error, undefined);
      // A route without a body (Gemini's interaction cancel) may still be sent a JSON content type.
      if (bytes!.length === 0 && (_req.routeOptions.config as { bodyless?: boolean } | undefined)?.bodyless) return done(null, undefined);
      try {
        const parsed = JSON.parse(bytes!.toString('utf8'));
        if (jsonTooDeep(parsed)) return done(new HubError(400, tooDeepMessage, { code: 'json_too_deep' }), undefined);
        if (parsed && typeof parsed === 'object') keepRawBody(parsed, bytes!);
        done(null, parsed);
      } catch (error) {
        done(new HubError(400, `invalid JSON body: ${(error as Error).message}`, { code: 'invalid_json' }), undefined);
      }
    }),
  );
  app.setErrorHandler(errorHandler(openAIShape));

  // Claude Code asks for models with anthropic-version set, Gemini clients on v1 with their key: each gets its own shape.
  app.get('/v1/models', async (req) => {
    if (req.headers['anthropic-version']) return anthropicModelList(await listModels(state, req, 'claude'));
    if (fromGeminiClient(req)) return googleModelList(await listModels(state, req, 'gemini'));
    return { object: 'list', data: await listModels(state, req) };
  });
  app.get('/v1/models/:model', async (req) => {
    const id = (req.params as { model: string }).model;
    return fromGeminiClient(req) ? googleModel(state, req, id) : describeModel(state, req, id);
  });
  for (const endpoint of POST_ENDPOINTS) {
    app.post(`/v1/${endpoint}`, (req, reply) => {
      if (endpoint === 'responses') attachWebSocketTurn(reply.raw);
      return handleRelay(state, req, reply, endpoint);
    });
  }
  app.post('/v1/responses/input_tokens', async (req) => ({ object: 'response.input_tokens', input_tokens: await countResponsesInput(state, req) }));
  registerStoredResponses(app, state);
  await app.register(async (scope) => {
    scope.setErrorHandler(errorHandler(anthropicErrorBody));
    registerClaudeDoor(scope, state);
  });
  await app.register(async (scope) => {
    scope.setErrorHandler(errorHandler(googleErrorBody));
    registerGeminiDoor(scope, state);
  });
}
