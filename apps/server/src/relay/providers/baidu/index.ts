import type { HubRequest } from '../../formats/openai/types.js';
import { familyAdapter } from '../openai-family/family.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, StreamMapper } from '../types.js';
import { createErnieStreamMapper, ernieAnswer, ernieBody, ernieEndpoint, isLegacyKey, withErnieToken } from './legacy.js';

/** Qianfan v2: OpenAI's format with a bearer API key. */
const qianfan = familyAdapter({
  name: 'baidu-qianfan',
  types: [15],
  endpoints: ['chat/completions', 'embeddings'],
  defaultBase: 'https://qianfan.baidubce.com',
  prefix: '/v2',
  streamUsage: true,
});

const QIANFAN_HOST = 'https://qianfan.baidubce.com';
const LEGACY_HOST = 'https://aip.baidubce.com';

/** The legacy API lives on aip.baidubce.com; a channel base URL of that host (or none) means the default. */
function legacyBase(channel: ChannelTarget): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  return !base || base === QIANFAN_HOST ? LEGACY_HOST : base;
}

/** Picks the API per answer: ERNIE answers carry `result`/`error_code`/`is_end`, Qianfan v2 answers `choices`. */
function dualStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const v2 = qianfan.createStreamMapper(opts);
  const legacy = createErnieStreamMapper(opts);
  let chosen: StreamMapper | undefined;
  const pick = () => chosen ?? v2;
  return {
    onEvent(data, event) {
      chosen ??= data.includes('"choices"') || data === '[DONE]' ? v2 : legacy;
      return chosen.onEvent(data, event);
    },
    usage: () => pick().usage(),
    text: () => pick().text(),
    finish: () => pick().finish(),
    ended: () => (chosen === legacy ? legacy.ended!() : true),
  };
}

/**
 * Baidu (type 15): a `clientId|clientSecret` key uses the legacy ERNIE (wenxinworkshop) API with an
 * OAuth access token; any other key is a Qianfan v2 bearer key (OpenAI format) — relay.md §5.1, §5.9.
 */
export const baidu: ProviderAdapter = {
  ...qianfan,
  name: 'baidu',
  endpoints: new Set<Endpoint>(['chat/completions', 'embeddings']),
  convertsStream: true,
  // The `use_openai_api` plugin forces Qianfan v2 whatever the key looks like.
  forPlugin: (plugin) => (plugin.use_openai_api?.enable === true ? qianfan : undefined),

  buildRequest(endpoint, body, channel, opts) {
    if (!isLegacyKey(channel.key)) return qianfan.buildRequest(endpoint, body, channel, opts);
    const base = `${legacyBase(channel)}/rpc/2.0/ai_custom/v1/wenxinworkshop`;
    const headers = { 'content-type': 'application/json', ...channel.headers };
    const b = body as Record<string, unknown>;
    if (endpoint === 'embeddings') {
      return { url: `${base}/embeddings/${ernieEndpoint(opts.model)}`, headers, body: { input: Array.isArray(b.input) ? b.input : [b.input] } };
    }
    return { url: `${base}/chat/${ernieEndpoint(opts.model)}`, headers, body: ernieBody(b as HubRequest, opts.stream) };
  },
  authorize: (req, channel, post) => (isLegacyKey(channel.key) ? withErnieToken(req, channel, post) : Promise.resolve(req)),
  transformResponse(endpoint, json, request) {
    const j = json as Record<string, unknown>;
    const ernie = 'error_code' in j || 'result' in j || (endpoint === 'embeddings' && !('object' in j));
    return ernie ? ernieAnswer(endpoint, j, (request ?? {}) as { model?: string }) : json;
  },
  createStreamMapper: dualStreamMapper,
};
