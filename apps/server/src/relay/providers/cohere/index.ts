import type { HubRequest } from '../../formats/openai/types.js';
import { mapFamilyError } from '../openai-family/family.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import type { ChannelTarget, Endpoint, ProviderAdapter } from '../types.js';
import { cohereChatBody, cohereEmbedBody, cohereRerankBody } from './request.js';
import { cohereAnswer, createCohereStreamMapper } from './response.js';

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');
const headers = (c: ChannelTarget, json: boolean) => ({ ...(json ? { 'content-type': 'application/json' } : {}), ...c.headers, authorization: `Bearer ${c.key}` });

/** Cohere (type 36): `/v2/chat` (SSE events of its own), `/v2/embed`, `/v2/rerank` (relay.md §5.10). */
export const cohere: ProviderAdapter = {
  types: [36],
  name: 'cohere',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions', 'embeddings', 'rerank']),
  convertsStream: true,

  buildRequest(endpoint, body, channel, opts) {
    const b = body as Record<string, unknown>;
    if (endpoint === 'rerank') return { url: `${base(channel)}/v2/rerank`, headers: headers(channel, true), body: cohereRerankBody(b) };
    if (endpoint === 'embeddings') return { url: `${base(channel)}/v2/embed`, headers: headers(channel, true), body: cohereEmbedBody(b) };
    return { url: `${base(channel)}/v2/chat`, headers: headers(channel, true), body: cohereChatBody(b as HubRequest, opts.stream) };
  },
  transformResponse: cohereAnswer,
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createCohereStreamMapper,
  mapError: mapFamilyError,

  modelsRequest: (channel) => ({ url: `${base(channel)}/v1/models?endpoint=chat&page_size=1000`, headers: headers(channel, false), body: undefined }),
  parseModels(json) {
    const models = (json as { models?: Array<{ name?: unknown }> } | null)?.models;
    return Array.isArray(models) ? models.map((m) => m.name).filter((n): n is string => typeof n === 'string') : [];
  },
};
