import type { FastifyInstance } from 'fastify';
import { HubError } from '../../common/errors.js';
import type { RelayState } from '../pipeline/relay-state.js';
import { handleRelay } from '../pipeline/flow/handle.js';
import { listModels } from '../pipeline/routing/models.js';
import { countDoorTokens } from './count-tokens.js';
import { foldStraySystem } from '../formats/anthropic/fold-system.js';
import { registerMessageBatches } from '../batches/routes.js';

/** Anthropic's model list shape. */
export function anthropicModelList(models: Array<{ id: string; created: number }>) {
  const data = models.map((m) => ({ type: 'model', id: m.id, display_name: m.id, created_at: new Date(m.created * 1000).toISOString() }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** Anthropic Messages doors: `/v1/messages` (Claude Code) and `/claude/v1/messages`, served by every channel family; Message Batches on Anthropic channels. */
export function registerClaudeDoor(app: FastifyInstance, state: RelayState): void {
  app.addHook('onRequest', async () => {
    if (!state.ctx.options.get('ClaudeAPIEnabled')) throw new HubError(403, 'Claude API is not supported', { type: 'one_hub_error', code: 'api_not_supported' });
  });
  // Before any check reads the body: stray `system` turns join the system prompt (Claude Code on GPT/Gemini names).
  app.addHook('preHandler', async (req) => {
    if (req.body && typeof req.body === 'object' && !Array.isArray(req.body) && !Buffer.isBuffer(req.body)) req.body = foldStraySystem(req.body as Record<string, unknown>);
  });
  for (const prefix of ['', '/claude']) {
    app.post(`${prefix}/v1/messages`, (req, reply) => handleRelay(state, req, reply, 'messages', { reader: 'claude' }));
    app.post(`${prefix}/v1/messages/count_tokens`, async (req) => ({ input_tokens: await countDoorTokens(state, req, 'messages', { reader: 'claude' }) }));
    registerMessageBatches(app, state, prefix);
  }
  app.get('/claude/v1/models', async (req) => anthropicModelList(await listModels(state, req, 'claude')));
}
