import type { HubRequest } from '../../formats/openai/types.js';
import { familyAdapter, mapFamilyError } from '../openai-family/family.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import type { ChannelTarget, Endpoint, ProviderAdapter } from '../types.js';
import { dashScopeChatBody, isVision } from './request.js';
import { createDashScopeStreamMapper, dashScopeAnswer } from './response.js';

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');

function headers(c: ChannelTarget, stream: boolean): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...c.headers,
    authorization: `Bearer ${c.key}`,
    ...(stream ? { 'x-dashscope-sse': 'enable' } : {}),
    ...(c.other.trim() ? { 'x-dashscope-plugin': c.other.trim() } : {}),
  };
}

/** DashScope's OpenAI-compatible mode (plugin `use_openai_api`), under `<base>/compatible-mode/v1`. */
const aliCompatible = familyAdapter({
  name: 'ali-compatible',
  types: [17],
  endpoints: ['chat/completions', 'embeddings'],
  streamUsage: true,
  url: (channel, endpoint) => `${base(channel).replace(/\/compatible-mode(\/v1)?$/, '')}/compatible-mode/v1/${endpoint}`,
  models: (channel) => `${base(channel).replace(/\/compatible-mode(\/v1)?$/, '')}/compatible-mode/v1/models`,
});

const enabled = (plugin: Record<string, Record<string, unknown>>, name: string) => plugin[name]?.enable === true;

/** Ali DashScope (type 17), native generation API (relay.md §5.9); the `use_openai_api` plugin selects compatible mode. */
export const ali: ProviderAdapter = {
  types: [17],
  name: 'ali',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions', 'embeddings']),
  convertsStream: true,
  forPlugin: (plugin) => (enabled(plugin, 'use_openai_api') ? aliCompatible : undefined),

  buildRequest(endpoint, body, channel, opts) {
    const b = body as Record<string, unknown>;
    if (endpoint === 'embeddings') {
      const texts = Array.isArray(b.input) ? b.input : [b.input];
      return { url: `${base(channel)}/api/v1/services/embeddings/text-embedding/text-embedding`, headers: headers(channel, false), body: { model: b.model, input: { texts } } };
    }
    const service = isVision(String(b.model)) ? 'multimodal-generation' : 'text-generation';
    return { url: `${base(channel)}/api/v1/services/aigc/${service}/generation`, headers: headers(channel, opts.stream), body: dashScopeChatBody(b as HubRequest, opts.stream, enabled(channel.plugin ?? {}, 'web_search')) };
  },
  transformResponse: dashScopeAnswer,
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createDashScopeStreamMapper,
  mapError: mapFamilyError,

  modelsRequest: (channel) => ({ url: `${base(channel)}/compatible-mode/v1/models`, headers: { ...channel.headers, authorization: `Bearer ${channel.key}` }, body: undefined }),
  parseModels: (json) => {
    const data = (json as { data?: Array<{ id?: unknown }> } | null)?.data;
    return Array.isArray(data) ? data.map((m) => m.id).filter((id): id is string => typeof id === 'string') : [];
  },
};
