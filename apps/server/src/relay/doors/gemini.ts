import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../../common/errors.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { handleRelay } from '../pipeline/flow/handle.js';
import { listModels } from '../pipeline/routing/models.js';
import { countDoorTokens } from './count-tokens.js';
import { registerInteractions } from '../interactions/routes.js';

/** Google's model list shape. */
export function googleModelList(models: Array<{ id: string }>) {
  return {
    models: models.map((m) => ({
      name: `models/${m.id}`,
      baseModelId: m.id,
      version: '001',
      displayName: m.id,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'],
    })),
  };
}

/** One model of the caller's list in Google's shape, or Google's 404. */
export async function googleModel(state: RelayState, req: FastifyRequest, id: string) {
  const found = (await listModels(state, req, 'gemini')).find((m) => m.id === id);
  if (!found) throw new HubError(404, `models/${id} is not found`, { code: 'model_not_found' });
  return googleModelList([found]).models[0];
}

/** A Gemini client's request (its key header or `?key=`), told apart from an OpenAI one at `/v1/models`. */
export const fromGeminiClient = (req: FastifyRequest) => req.headers['x-goog-api-key'] !== undefined || (req.query as { key?: unknown }).key !== undefined;

/** `gemini-2.5-flash:streamGenerateContent` → model and method. */
function splitAction(req: FastifyRequest): { model: string; method: string } {
  const param = (req.params as { action: string }).action;
  const at = param.lastIndexOf(':');
  if (at <= 0) throw new HubError(404, `unknown method in ${param}; expected models/{model}:generateContent`, { code: 'not_found' });
  return { model: decodeURIComponent(param.slice(0, at)), method: param.slice(at + 1) };
}

/** A `models/{model}:{method}` call at any of the door's path versions. */
async function callMethod(state: RelayState, req: FastifyRequest, reply: FastifyReply) {
  const { model, method } = splitAction(req);
  switch (method) {
    case 'countTokens':
      return { totalTokens: await countDoorTokens(state, req, 'generateContent', { reader: 'gemini', model }) };
    case 'generateContent':
    case 'streamGenerateContent': {
      const stream = method === 'streamGenerateContent';
      const alt = (req.query as { alt?: string }).alt;
      return handleRelay(state, req, reply, 'generateContent', { reader: 'gemini', model, stream, jsonArray: stream && alt !== 'sse' });
    }
    case 'embedContent':
    case 'batchEmbedContents':
      return handleRelay(state, req, reply, method, { reader: 'gemini', model, stream: false });
    default:
      throw new HubError(404, `method ${method} is not supported`, { code: 'not_found' });
  }
}

/**
 * Gemini doors: `/v1beta/models/…` (Gemini CLI), `/v1/models/…` and `/gemini/{version}/models/…`,
 * served by every channel family, and the Interactions API (Gemini channels only). Under `/v1` only the `:method` calls are registered here: the
 * model list there is OpenAI's, answered in Google's shape to a Gemini client (relay/index.ts).
 */
export function registerGeminiDoor(app: FastifyInstance, state: RelayState): void {
  app.addHook('onRequest', async () => {
    if (!state.ctx.options.get('GeminiAPIEnabled')) throw new HubError(403, 'Gemini API is not supported', { type: 'one_hub_error', code: 'api_not_supported' });
  });
  for (const prefix of ['/v1beta', '/gemini/:version']) {
    app.get(`${prefix}/models`, async (req) => googleModelList(await listModels(state, req, 'gemini')));
    app.get(`${prefix}/models/:model`, async (req) => googleModel(state, req, (req.params as { model: string }).model));
  }
  for (const prefix of ['/v1beta', '/v1', '/gemini/:version']) app.post(`${prefix}/models/:action`, (req, reply) => callMethod(state, req, reply));
  registerInteractions(app, state);
}
