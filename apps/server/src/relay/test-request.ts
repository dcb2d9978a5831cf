import { HubError } from '../common/errors.js';
import type { Endpoint, ProviderAdapter } from './providers/types.js';

const UNSUPPORTED = /^tts|rerank|whisper|speech|^mj_|^chirp/;
const EMBEDDINGS = /^text-|embed|Embed|davinci|babbage|bge-|e5-|LLM2Vec|retrieval|uae-|gte-|jina-clip|jina-embeddings/;
const IMAGE = /flux|diffusion|stabilityai|sd-|dall|cogview|janus|image/;
const RESPONSES = /^o[1-9]/;

const BODIES: Partial<Record<Endpoint, (model: string) => Record<string, unknown>>> = {
  'chat/completions': (model) => ({ model, messages: [{ role: 'user', content: "You just need to output 'hi' next." }], max_tokens: 5 }),
  embeddings: (model) => ({ model, input: 'hi' }),
  'images/generations': (model) => ({ model, prompt: 'A cute cat', n: 1 }),
  responses: (model) => ({ model, input: "You just need to output 'hi' next." }),
};

/**
 * The request a channel test sends (relay.md §7.1): the kind follows the model name; a channel
 * type that lacks that endpoint is tested on the first of chat, embeddings or images it serves.
 */
export function testRequest(model: string, adapter: ProviderAdapter): { endpoint: Endpoint; body: Record<string, unknown> } {
  if (UNSUPPORTED.test(model)) throw new HubError(400, '不支持的模型类型 (this model kind cannot be tested)', { code: 'unsupported_test_model' });
  const byName: Endpoint = EMBEDDINGS.test(model) ? 'embeddings' : IMAGE.test(model) ? 'images/generations' : RESPONSES.test(model) ? 'responses' : 'chat/completions';
  // Chat doors convert to other dialects, so a Claude or Gemini channel "serves" chat too.
  const serves = (e: Endpoint) => adapter.endpoints.has(e) || (e === 'chat/completions' && adapter.dialect !== 'openai');
  const fallback = (['chat/completions', 'embeddings', 'images/generations'] as Endpoint[]).find(serves);
  const endpoint = serves(byName) ? byName : byName === 'responses' && serves('chat/completions') ? 'chat/completions' : fallback;
  if (!endpoint) throw new HubError(400, '该渠道类型不支持测试 (this channel type cannot be tested)', { code: 'unsupported_test_model' });
  return { endpoint, body: BODIES[endpoint]!(model) };
}
