import { HubError } from '../../../common/errors.js';
import { usageFromAnthropic } from '../../formats/index.js';
import { billingUsageOrNull } from '../../bridge/usage.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import type { ChannelTarget, Endpoint, InboundHeaders, ProviderAdapter, UpstreamRequest } from '../types.js';
import { createAnthropicPassThrough } from './stream.js';

export const ANTHROPIC_VERSION = '2023-06-01';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : v);

/** Auth and version headers; the caller's anthropic-version and anthropic-beta are forwarded. */
export function anthropicHeaders(channel: ChannelTarget, inbound: InboundHeaders = {}): Record<string, string> {
  const beta = one(inbound['anthropic-beta']);
  return {
    'content-type': 'application/json',
    ...channel.headers,
    'x-api-key': channel.key,
    'anthropic-version': one(inbound['anthropic-version']) || ANTHROPIC_VERSION,
    ...(beta ? { 'anthropic-beta': beta } : {}),
  };
}

const url = (channel: ChannelTarget, path: string) => `${channel.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/${path}`;

/** Anthropic's error body `{type:"error", error:{type, message}}` → the gateway error. */
export function anthropicError(status: number, body: string): HubError {
  let message = body.trim() || `bad response status code ${status}`;
  let type = 'upstream_error';
  try {
    const parsed = JSON.parse(body) as { error?: { type?: string; message?: string } };
    if (parsed.error?.message) message = parsed.error.message;
    if (parsed.error?.type) type = parsed.error.type;
  } catch {
    // not JSON: keep the text
  }
  return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type, code: type, upstream: body.slice(0, 2000), retryable: status === 529 });
}

/** Anthropic Messages API (type 14): native `/v1/messages`; chat-completions callers arrive converted. */
export const anthropic: ProviderAdapter = {
  types: [14],
  name: 'anthropic',
  dialect: 'anthropic',
  endpoints: new Set<Endpoint>(['messages']),

  buildRequest(endpoint, body, channel, opts): UpstreamRequest {
    if (endpoint !== 'messages') throw new HubError(400, `anthropic channels do not serve ${endpoint}`, { code: 'unsupported_endpoint', retryable: true });
    return { url: url(channel, 'messages'), headers: anthropicHeaders(channel, opts.inbound), body };
  },

  parseUsage: (_endpoint, json) => billingUsageOrNull(usageFromAnthropic((json as { usage?: unknown } | null)?.usage), 'anthropic'),
  createStreamMapper: createAnthropicPassThrough,
  mapError: anthropicError,

  countTokensRequest: (channel, body, inbound) => ({ url: url(channel, 'messages/count_tokens'), headers: anthropicHeaders(channel, inbound), body }),

  modelsRequest: (channel) => ({ url: url(channel, 'models?limit=1000'), headers: anthropicHeaders(channel), body: undefined }),
  parseModels(json) {
    const data = (json as { data?: Array<{ id?: unknown }> } | null)?.data;
    return Array.isArray(data) ? data.map((m) => m.id).filter((id): id is string => typeof id === 'string') : [];
  },
};
