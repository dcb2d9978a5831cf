import { HubError } from '../../../common/errors.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import { anthropic } from '../anthropic/index.js';
import type { Endpoint, ProviderAdapter, StreamDecoder } from '../types.js';
import { anthropicNamesOf, bedrockModelsRequest, betaList, buildBedrockCountRequest, buildBedrockRequest } from './request.js';
import { createBedrockStreamReader } from './stream.js';

/** Bedrock's error body `{message}` (the type travels in a header) → the gateway error. */
export function bedrockError(status: number, body: string): HubError {
  let message = body.trim() || `bad response status code ${status}`;
  try {
    const parsed = JSON.parse(body) as { message?: string; Message?: string };
    message = parsed.message ?? parsed.Message ?? message;
  } catch {
    // not JSON: keep the text
  }
  const type = status === 401 || status === 403 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status === 400 ? 'invalid_request_error' : 'upstream_error';
  // "Operation not allowed" is an account-level refusal another channel may not share (relay.md §5.8).
  const retryable = status === 400 && message.includes('Operation not allowed');
  return new HubError(status, `Provider API error: ${scrubSecrets(message).slice(0, 1000)}`, { type, code: type, upstream: body.slice(0, 2000), retryable });
}

/** The HTTP status Bedrock gives each stream exception when it happens outside a stream. */
const EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  modelTimeoutException: 408,
  validationException: 400,
  internalServerException: 500,
  modelStreamErrorException: 424,
};

function bedrockStreamDecoder(): StreamDecoder {
  const reader = createBedrockStreamReader();
  return {
    push(chunk, emit) {
      for (const item of reader.push(chunk)) {
        if (item.kind === 'error') throw bedrockError(EXCEPTION_STATUS[item.type] ?? 502, JSON.stringify({ message: `${item.type}: ${item.message}` }));
        emit({ data: item.data, event: item.type });
      }
    },
  };
}

/**
 * Amazon Bedrock (type 32), Claude models: the Messages body with Bedrock's
 * version and the model in the path, signed with SigV4 (or a Bedrock API key);
 * streams arrive as AWS binary event streams of Claude events.
 */
export const bedrock: ProviderAdapter = {
  types: [32],
  name: 'bedrock',
  dialect: 'anthropic',
  endpoints: new Set<Endpoint>(['messages']),
  regionalHost: true,

  buildRequest(endpoint, body, channel, opts) {
    if (endpoint !== 'messages') throw new HubError(400, `bedrock channels do not serve ${endpoint}`, { code: 'unsupported_endpoint', retryable: true });
    const signed = buildBedrockRequest({
      key: channel.key,
      baseUrl: channel.baseUrl,
      model: opts.model,
      stream: opts.stream,
      body: body as Record<string, unknown>,
      betas: betaList(opts.inbound?.['anthropic-beta']),
      now: new Date(),
    });
    // The signed bytes go out as they are.
    return { url: signed.url, headers: { ...channel.headers, ...signed.headers }, body: signed.body, raw: true };
  },

  parseUsage: anthropic.parseUsage,
  createStreamMapper: anthropic.createStreamMapper,
  mapError: bedrockError,

  countTokensRequest(channel, body, inbound) {
    const { model, ...rest } = body;
    const signed = buildBedrockCountRequest({ key: channel.key, baseUrl: channel.baseUrl, model: String(model), body: rest, betas: betaList(inbound?.['anthropic-beta']), now: new Date() });
    return { url: signed.url, headers: { ...channel.headers, ...signed.headers }, body: Buffer.from(signed.body), raw: true };
  },
  streamFraming: { contentType: 'application/vnd.amazon.eventstream', create: bedrockStreamDecoder },

  modelsRequest(channel) {
    const req = bedrockModelsRequest(channel.key, channel.baseUrl, new Date());
    return { url: req.url, headers: { ...channel.headers, ...req.headers }, body: undefined };
  },
  parseModels: (json) => anthropicNamesOf((json as { modelSummaries?: unknown } | null)?.modelSummaries),
};
