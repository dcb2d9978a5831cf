import type { HubError } from '../../common/errors.js';

/** Relay endpoints an adapter may serve (the path after /v1). */
export type Endpoint =
  | 'chat/completions'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images/generations'
  | 'images/edits'
  | 'images/variations'
  | 'audio/speech'
  | 'audio/transcriptions'
  | 'audio/translations'
  | 'rerank'
  | 'responses';

/** What an adapter needs to know about the channel: plain data, no database row. */
export interface ChannelTarget {
  id: number;
  type: number;
  key: string;
  baseUrl: string;
  other: string;
  headers: Record<string, string>;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** JSON body (serialised by the caller) or raw bytes passed through (multipart). */
  body: unknown;
  raw?: boolean;
}

/** Usage normalised across providers; token buckets follow OpenAI's inclusion rules. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  audioInputTokens: number;
  audioOutputTokens: number;
}

export const emptyUsage = (): Usage => ({
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  audioInputTokens: 0,
  audioOutputTokens: 0,
});

/** Per-request stream state: sees each upstream SSE event, says what to forward, keeps usage. */
export interface StreamMapper {
  /** Answers the frame payloads to send downstream (possibly none). */
  onEvent(data: string): string[];
  /** Usage reported by upstream, if any. */
  usage(): Usage | null;
  /** Generated text seen so far (for local counting when upstream reports no usage). */
  text(): string;
  /** Frames to send after the upstream stream ended (e.g. `[DONE]`). */
  finish(): string[];
}

export interface ProviderAdapter {
  /** Channel type ids this adapter serves. */
  types: number[];
  name: string;
  endpoints: ReadonlySet<Endpoint>;
  /** Builds the upstream request for an OpenAI-shaped body (pure). */
  buildRequest(endpoint: Endpoint, body: unknown, channel: ChannelTarget, opts: { stream: boolean; raw: boolean }): UpstreamRequest;
  /** Usage from a non-stream JSON answer (pure). */
  parseUsage(endpoint: Endpoint, json: unknown): Usage | null;
  createStreamMapper(opts: { forwardUsage: boolean }): StreamMapper;
  /** Upstream error status + body → the gateway error (pure). */
  mapError(status: number, body: string): HubError;
  /** Model-list request, when the provider has one. */
  modelsRequest?(channel: ChannelTarget): UpstreamRequest;
  parseModels?(json: unknown): string[];
  balanceRequest?(channel: ChannelTarget): UpstreamRequest;
  parseBalance?(json: unknown): number | null;
}
