import { HubError } from '../../../common/errors.js';
import { usageFromGemini } from '../../formats/index.js';
import { billingUsageOrNull } from '../../bridge/usage.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, UpstreamRequest } from '../types.js';
import { createGeminiPassThrough } from './stream.js';
import { batchEmbedVectors, openAIToBatchEmbed, withEmbedModel } from '../../formats/gemini/embed.js';
import { asBadRequest } from '../../bridge/request.js';
import { embeddingsAnswer } from '../shared/openai-shapes.js';
import { usageFromInteraction } from '../../formats/gemini/interactions.js';
import { createInteractionsPassThrough } from './interactions.js';

/** API version from the channel's `other` field (v1beta by default). */
const version = (channel: ChannelTarget) => (/^v1[a-z0-9]*$/.test(channel.other.trim()) ? channel.other.trim() : 'v1beta');
const base = (channel: ChannelTarget) => channel.baseUrl.replace(/\/+$/, '');
const headers = (channel: ChannelTarget): Record<string, string> => ({ 'content-type': 'application/json', ...channel.headers, 'x-goog-api-key': channel.key });

/** Google's error body `{error:{code, message, status}}` → the gateway error. */
export function googleError(status: number, body: string): HubError {
  let message = body.trim() || `bad response status code ${status}`;
  let code: string | null = null;
  try {
    // Streaming calls without alt=sse wrap the error in an array.
    const value = JSON.parse(body) as unknown;
    const parsed = (Array.isArray(value) ? value[0] : value) as { error?: { message?: string; status?: string; details?: Array<{ reason?: unknown }> } };
    if (parsed.error?.message) message = parsed.error.message;
    code = parsed.error?.status ?? null;
    // Google answers a bad key with 400 INVALID_ARGUMENT; the reason says it is about the key, not the request.
    if (parsed.error?.details?.some((d) => d?.reason === 'API_KEY_INVALID')) code = 'API_KEY_INVALID';
  } catch {
    // not JSON: keep the text
  }
  const type = code === 'API_KEY_INVALID' ? 'authentication_error' : status === 400 ? 'invalid_request_error' : status === 401 || status === 403 ? 'authentication_error' : 'upstream_error';
  return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type, code, upstream: body.slice(0, 2000) });
}

/** The Interactions API's revision header, forwarded as the caller set it. */
const REVISION = 'api-revision';

/** The channel's Interactions collection, or one interaction in it (`{id}`, `{id}/cancel`). */
export const interactionsUrl = (channel: ChannelTarget, rest = '') => `${base(channel)}/${version(channel)}/interactions${rest ? `/${rest}` : ''}`;

/** Headers of an Interactions call: the channel's key, and the caller's API revision when it named one. */
export function interactionsHeaders(channel: ChannelTarget, inbound?: Record<string, string | string[] | undefined>): Record<string, string> {
  const revision = inbound?.[REVISION];
  return typeof revision === 'string' && revision ? { ...headers(channel), [REVISION]: revision } : headers(channel);
}

const action = (channel: ChannelTarget, model: string, method: string) => `${base(channel)}/${version(channel)}/models/${encodeURIComponent(model)}:${method}`;

/** Google Gemini API (type 25): native generateContent and embeddings; OpenAI and Anthropic callers arrive converted. */
export const gemini: ProviderAdapter = {
  types: [25],
  name: 'gemini',
  dialect: 'gemini',
  endpoints: new Set<Endpoint>(['generateContent', 'embedContent', 'batchEmbedContents', 'embeddings', 'interactions']),

  buildRequest(endpoint, body, channel, opts): UpstreamRequest {
    const json = body as Record<string, unknown>;
    switch (endpoint) {
      case 'generateContent':
        return { url: action(channel, opts.model, opts.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'), headers: headers(channel), body };
      case 'embedContent':
      case 'batchEmbedContents':
        return { url: action(channel, opts.model, endpoint), headers: headers(channel), body: withEmbedModel(json, opts.model) };
      case 'embeddings':
        return { url: action(channel, opts.model, 'batchEmbedContents'), headers: headers(channel), body: asBadRequest(() => openAIToBatchEmbed(json, opts.model)) };
      case 'interactions':
        // The model travels in the body (already mapped); streaming is the body's `stream`, not `alt=sse`.
        return { url: interactionsUrl(channel), headers: interactionsHeaders(channel, opts.inbound), body };
      default:
        throw new HubError(400, `gemini channels do not serve ${endpoint}`, { code: 'unsupported_endpoint', retryable: true });
    }
  },

  // Only `/v1/embeddings` answers are converted (to OpenAI's shape); usage is counted locally, as Gemini reports none.
  transformResponse(endpoint, json, request) {
    if (endpoint !== 'embeddings') return json;
    const req = request as { model?: unknown; encoding_format?: unknown };
    return embeddingsAnswer(String(req.model ?? ''), batchEmbedVectors(json), 0, req.encoding_format);
  },

  parseUsage: (endpoint, json) =>
    endpoint === 'interactions'
      ? billingUsageOrNull(usageFromInteraction((json as { usage?: unknown } | null)?.usage), 'gemini')
      : billingUsageOrNull(usageFromGemini((json as { usageMetadata?: unknown } | null)?.usageMetadata), 'gemini'),
  createStreamMapper: (opts) => (opts.endpoint === 'interactions' ? createInteractionsPassThrough() : createGeminiPassThrough()),
  mapError: googleError,

  modelsRequest: (channel) => ({ url: `${base(channel)}/${version(channel)}/models?pageSize=1000`, headers: headers(channel), body: undefined }),
  parseModels(json) {
    const models = (json as { models?: Array<{ name?: unknown }> } | null)?.models;
    return Array.isArray(models) ? models.map((m) => (typeof m.name === 'string' ? m.name.replace(/^models\//, '') : '')).filter(Boolean) : [];
  },
};
