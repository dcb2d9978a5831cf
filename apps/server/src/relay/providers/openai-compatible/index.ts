import { CHANNEL_TYPES } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, UpstreamRequest } from '../types.js';
import { readOpenAIUsage } from './usage.js';
import { openAIBilling } from '../openai-family/balance.js';
import { createOpenAIStreamMapper } from './stream.js';

const ALL_ENDPOINTS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  'chat/completions', 'completions', 'embeddings', 'moderations', 'images/generations', 'images/edits',
  'images/variations', 'audio/speech', 'audio/transcriptions', 'audio/translations', 'rerank', 'responses',
]);

/** Types whose upstream honours `stream_options.include_usage`; others get it stripped. */
const STREAM_USAGE_TYPES = new Set([0, 1, 8, 20, 28, 29, 45, 56]);
/** Types whose API lives at the base URL without a `/v1` segment. */
const NO_V1_TYPES = new Set([49]);

export const OPENAI_COMPATIBLE_TYPES = [0, 8, ...CHANNEL_TYPES.filter((t) => t.protocol === 'openai').map((t) => t.id)];

function url(channel: ChannelTarget, path: string): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  return NO_V1_TYPES.has(channel.type) ? `${base}/${path}` : `${base}/v1/${path}`;
}

function headers(channel: ChannelTarget, json: boolean): Record<string, string> {
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...channel.headers,
    authorization: `Bearer ${channel.key}`,
  };
}

/** Removes anything that looks like a credential from upstream error text. */
export function scrubSecrets(text: string): string {
  return text.replace(/\b(sk|key|pk)-[A-Za-z0-9_-]{8,}/g, '$1-***').replace(/Bearer\s+[A-Za-z0-9._-]{8,}/g, 'Bearer ***');
}

export const openAICompatible: ProviderAdapter = {
  types: OPENAI_COMPATIBLE_TYPES,
  name: 'openai-compatible',
  dialect: 'openai',
  endpoints: ALL_ENDPOINTS,

  buildRequest(endpoint, body, channel, opts): UpstreamRequest {
    if (opts.raw) return { url: url(channel, endpoint), headers: headers(channel, false), body, raw: true };
    let out = body as Record<string, unknown>;
    if (opts.stream && (endpoint === 'chat/completions' || endpoint === 'completions')) {
      const wantsUsage = STREAM_USAGE_TYPES.has(channel.type);
      const options = out.stream_options as { include_usage?: unknown } | undefined;
      // Rewritten only when needed: an untouched body goes out as the caller sent it.
      if (wantsUsage ? options?.include_usage !== true : options !== undefined) {
        const { stream_options: _ignored, ...rest } = out;
        out = wantsUsage ? { ...rest, stream_options: { ...(options ?? {}), include_usage: true } } : rest;
      }
    }
    return { url: url(channel, endpoint), headers: headers(channel, true), body: out };
  },

  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),

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
