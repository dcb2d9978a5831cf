import { scrubSecrets } from '../../../egress/scrub.js';
import { CHANNEL_TYPES } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, UpstreamRequest } from '../types.js';
import { readOpenAIUsage } from './usage.js';
import { openAIBilling } from '../openai-family/balance.js';
import { streamUsageBody } from '../openai-family/body.js';
import { createOpenAIStreamMapper } from './stream.js';

const ALL_ENDPOINTS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  'chat/completions', 'completions', 'embeddings', 'moderations', 'images/generations', 'images/edits',
  'images/variations', 'audio/speech', 'audio/transcriptions', 'audio/translations', 'rerank', 'responses',
  'responses/compact', 'responses/input_tokens',
]);

/** Types whose upstream honours `stream_options.include_usage`; others get it stripped (the other OpenAI-dialect types are profiles in openai-family). */
const STREAM_USAGE_TYPES = new Set([0, 1, 8]);

export const OPENAI_COMPATIBLE_TYPES = [0, 8, ...CHANNEL_TYPES.filter((t) => t.protocol === 'openai').map((t) => t.id)];

/** Relay-mode numbers of the Custom channel's `customize` plugin (api.md §3 plugins). */
const CUSTOMIZE_MODE: Partial<Record<Endpoint, string>> = {
  'chat/completions': '1', completions: '2', embeddings: '3', moderations: '4', 'images/generations': '5', 'images/edits': '6',
  'images/variations': '7', 'audio/speech': '9', 'audio/transcriptions': '10', 'audio/translations': '11', responses: '16',
};

function url(channel: ChannelTarget, path: string): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  const custom = channel.plugin?.customize?.[CUSTOMIZE_MODE[path as Endpoint] ?? ''];
  if (custom === 'disable') throw new HubError(501, `this channel does not serve ${path} (customize plugin)`, { code: 'unsupported_endpoint' });
  if (typeof custom === 'string' && custom.trim()) return `${base}${custom.startsWith('/') ? '' : '/'}${custom.trim()}`;
  return `${base}/v1/${path}`;
}

function headers(channel: ChannelTarget, json: boolean): Record<string, string> {
  // Built by assignment: this runs once per request, and spreads allocate temporary objects.
  const out: Record<string, string> = {};
  if (json) out['content-type'] = 'application/json';
  for (const name in channel.headers) out[name] = channel.headers[name];
  out.authorization = `Bearer ${channel.key}`;
  return out;
}

/** Kept here for the providers that import it; the one scrubber lives in egress/. */
export { scrubSecrets };

export const openAICompatible: ProviderAdapter = {
  types: OPENAI_COMPATIBLE_TYPES,
  name: 'openai-compatible',
  dialect: 'openai',
  endpoints: ALL_ENDPOINTS,

  buildRequest(endpoint, body, channel, opts): UpstreamRequest {
    if (opts.raw) return { url: url(channel, endpoint), headers: headers(channel, false), body, raw: true };
    const out = streamUsageBody(endpoint, body as Record<string, unknown>, opts.stream, STREAM_USAGE_TYPES.has(channel.type));
    return { url: url(channel, endpoint), headers: headers(channel, true), body: out };
  },

  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage, (json as { service_tier?: unknown } | null)?.service_tier),

  createStreamMapper: createOpenAIStreamMapper,

  mapError(status, body) {
    let message = body.trim() || `bad response status code ${status}`;
    let type = 'upstream_error';
    let code: string | null = 'bad_response_status_code';
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string; type?: string; code?: string | number } | string; detail?: string };
      const err = parsed.error;
      if (typeof err === 'string') message = err;
      else if (err?.message) {
        message = err.message;
        type = err.type ?? type;
        code = err.code === undefined || err.code === null ? code : String(err.code);
      } else if (typeof parsed.detail === 'string') message = parsed.detail;
    } catch {
      // not JSON: keep the text
    }
    return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type, code, upstream: body.slice(0, 2000) });
  },

  fetchBalance: (channel, get) => openAIBilling(channel, headers(channel, false), get),

  modelsRequest: (channel) => ({ url: url(channel, 'models'), headers: headers(channel, false), body: undefined }),
  parseModels(json) {
    const data = (json as { data?: Array<{ id?: unknown }> } | null)?.data;
    return Array.isArray(data) ? [...new Set(data.map((m) => m.id).filter((id): id is string => typeof id === 'string'))] : [];
  },
};
