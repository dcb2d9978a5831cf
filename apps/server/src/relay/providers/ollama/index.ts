import type { HubRequest } from '../../formats/openai/types.js';
import { mapFamilyError } from '../openai-family/family.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import type { ChannelTarget, Endpoint, ProviderAdapter } from '../types.js';
import { ollamaChatBody, ollamaEmbedBody } from './request.js';
import { createOllamaStreamMapper, ndjsonDecoder, ollamaAnswer } from './response.js';

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');

/** Bearer key (Ollama Cloud; any value for a local server) plus the channel's extra headers (e.g. Cloudflare Access). */
const headers = (c: ChannelTarget, json: boolean) => ({ ...(json ? { 'content-type': 'application/json' } : {}), ...c.headers, authorization: `Bearer ${c.key}` });

/** Ollama (type 39): native `/api/chat` (NDJSON streams), `/api/embed`, `/api/tags` (relay.md §5.10). */
export const ollama: ProviderAdapter = {
  types: [39],
  name: 'ollama',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions', 'embeddings']),
  convertsStream: true,
  streamFraming: { contentType: 'application/x-ndjson', create: ndjsonDecoder },

  buildRequest(endpoint, body, channel, opts) {
    const b = body as Record<string, unknown>;
    if (endpoint === 'embeddings') return { url: `${base(channel)}/api/embed`, headers: headers(channel, true), body: ollamaEmbedBody(b) };
    return { url: `${base(channel)}/api/chat`, headers: headers(channel, true), body: ollamaChatBody(b as HubRequest, opts.stream) };
  },
  transformResponse: ollamaAnswer,
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createOllamaStreamMapper,
  mapError: mapFamilyError,

  modelsRequest: (channel) => ({ url: `${base(channel)}/api/tags`, headers: headers(channel, false), body: undefined }),
  parseModels(json) {
    const models = (json as { models?: Array<{ name?: unknown; model?: unknown }> } | null)?.models;
    return Array.isArray(models) ? models.map((m) => m.name ?? m.model).filter((n): n is string => typeof n === 'string') : [];
  },
};
