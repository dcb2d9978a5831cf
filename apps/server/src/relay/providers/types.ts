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
  | 'responses'
  /** Responses compaction (Codex's remote compaction): OpenAI channels only, billed on reported usage. */
  | 'responses/compact'
  /** Responses input token count: free, asked of an OpenAI channel or counted locally (relay/responses/input-tokens.ts). */
  | 'responses/input_tokens'
  /** Anthropic Messages (`/v1/messages`, `/claude/v1/messages`). */
  | 'messages'
  /** Gemini generateContent / streamGenerateContent (model in the path). */
  | 'generateContent'
  /** Gemini embedContent / batchEmbedContents (model in the path), billed on input tokens like embeddings. */
  | 'embedContent'
  | 'batchEmbedContents'
  /** Gemini Interactions (`/v1beta/interactions`): Gemini channels only, passed through, billed on reported usage. */
  | 'interactions';

/** The wire format a channel speaks for chat-like requests. */
export type Dialect = 'openai' | 'anthropic' | 'gemini';

/** Caller headers an adapter may forward (e.g. anthropic-version, anthropic-beta). */
export type InboundHeaders = Record<string, string | string[] | undefined>;

/** What an adapter needs to know about the channel: plain data, no database row. */
export interface ChannelTarget {
  id: number;
  type: number;
  key: string;
  baseUrl: string;
  other: string;
  headers: Record<string, string>;
  /** The channel's plugin settings (`{<plugin>: {<param>: value}}`, api.md §3 plugins). */
  plugin?: Record<string, Record<string, unknown>>;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** JSON body (serialised by the caller) or raw bytes passed through (multipart). */
  body: unknown;
  raw?: boolean;
}

/** A converted answer that is not JSON (speech audio decoded from a provider's JSON answer). */
export class BinaryAnswer {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
  ) {}
}

/** Usage normalised across providers; token buckets follow OpenAI's inclusion rules. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Cache reads as OpenAI reports them (priced by `cached_tokens`). */
  cachedTokens: number;
  /** Cache reads as Anthropic and Gemini report them (priced by `cached_read_tokens`, a deeper discount). */
  cacheReadTokens: number;
  /** Cache writes with a 5-minute lifetime (Anthropic's default). */
  cacheWriteTokens: number;
  /** Cache writes with a 1-hour lifetime (priced by `cached_write_1h_tokens`). */
  cacheWrite1hTokens: number;
  reasoningTokens: number;
  audioInputTokens: number;
  audioOutputTokens: number;
  /** The service tier the upstream reports it served the request at (OpenAI `service_tier`, Anthropic `usage.service_tier`). */
  serviceTier?: string;
  /** The speed the upstream reports (Anthropic `usage.speed`: `fast` is fast mode). */
  speed?: string;
}

export const emptyUsage = (): Usage => ({
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 0,
  audioInputTokens: 0,
  audioOutputTokens: 0,
});

/** One frame sent downstream: a `data:` payload, or a named SSE event. */
export type Frame = string | { event: string; data: string };

/** Per-request stream state: sees each upstream SSE event, says what to forward, keeps usage. */
export interface StreamMapper {
  /** Answers the frames to send downstream (possibly none). `event` is the upstream SSE event name. */
  onEvent(data: string, event?: string): Frame[];
  /** Usage reported by upstream, if any. */
  usage(): Usage | null;
  /** Generated text seen so far (for local counting when upstream reports no usage). */
  text(): string;
  /** Frames to send after the upstream stream ended (e.g. `[DONE]`). */
  finish(): Frame[];
  /** Whether upstream sent its end-of-stream marker (a stream without one broke off). */
  ended?(): boolean;
  /** Frames telling the client the stream failed after it started, in the door's own shape. */
  fail?(message: string): Frame[];
}

export interface BuildOptions {
  stream: boolean;
  raw: boolean;
  /** Model name sent upstream (Gemini-style APIs carry it in the URL). */
  model: string;
  inbound?: InboundHeaders;
}

export interface ProviderAdapter {
  /** Channel type ids this adapter serves. */
  types: number[];
  name: string;
  /** Wire format for chat-like requests; other formats reach this channel through conversion. */
  dialect: Dialect;
  /** Endpoints served natively (bodies forwarded in the caller's own format). */
  endpoints: ReadonlySet<Endpoint>;
  /** Builds the upstream request for a body in one of `endpoints`' formats (pure). */
  buildRequest(endpoint: Endpoint, body: unknown, channel: ChannelTarget, opts: BuildOptions): UpstreamRequest;
  /** Usage from a non-stream JSON answer (pure). */
  parseUsage(endpoint: Endpoint, json: unknown): Usage | null;
  /** `model`: the name chunks carry when upstream events name none; `endpoint`: the one built, when the adapter streams more than one kind. */
  createStreamMapper(opts: { forwardUsage: boolean; model?: string; endpoint?: Endpoint }): StreamMapper;
  /** Upstream error status + body → the gateway error (pure). */
  mapError(status: number, body: string): HubError;
  /** Model-list request, when the provider has one. */
  modelsRequest?(channel: ChannelTarget): UpstreamRequest;
  parseModels?(json: unknown): string[];
  /** The channel's upstream balance; `get` sends a GET through the channel's proxy and answers its JSON. */
  fetchBalance?(channel: ChannelTarget, get: (req: UpstreamRequest) => Promise<unknown>): Promise<number | null>;
  /** A non-stream answer that is not OpenAI-shaped (or an error sent with 200) → OpenAI's shape (or a BinaryAnswer); throws a HubError. `request` is the OpenAI-shaped body that was built. */
  transformResponse?(endpoint: Endpoint, json: unknown, request: unknown): unknown;
  /** createStreamMapper turns a foreign stream into OpenAI chunks, so a conversion to the door's format chains after it. */
  convertsStream?: boolean;
  /** The provider only streams: non-stream callers get the stream joined into one answer (needs `convertsStream`). */
  streamOnly?: boolean;
  /** The adapter a channel's plugin settings select instead (e.g. Ali's or Baidu's `use_openai_api`). */
  forPlugin?(plugin: Record<string, Record<string, unknown>>): ProviderAdapter | undefined;
  /** For a channel type whose models speak different dialects (Vertex: Gemini and Claude): the adapter for one model. */
  forModel?(model: string): ProviderAdapter;
  /** Async step between building and sending (e.g. an OAuth access token); `post` goes through the channel's proxy. */
  authorize?(req: UpstreamRequest, channel: ChannelTarget, post: FormPoster): Promise<UpstreamRequest>;
  /** Streams not framed as SSE (Bedrock's binary event stream): their content type and a per-request decoder. */
  streamFraming?: { contentType: string; create(): StreamDecoder };
  /** The adapter derives its host (e.g. from the region in the key) when the channel has no base URL. */
  regionalHost?: boolean;
  /**
   * A model listing that takes more than one plain GET (paging, several sources); wins over modelsRequest.
   * `get` runs the authorize step, sends through the channel's proxy and answers the JSON; `configured` is the channel's model list.
   */
  listModels?(channel: ChannelTarget, get: (req: UpstreamRequest) => Promise<unknown>, configured: string[]): Promise<string[]>;
  /** The provider's token count for a Messages body (model already mapped); answers `{input_tokens}` or `{inputTokens}`. */
  countTokensRequest?(channel: ChannelTarget, body: Record<string, unknown>, inbound?: InboundHeaders): UpstreamRequest;
}

/** Posts a form body and answers status and text (token exchanges). */
export type FormPoster = (url: string, form: string) => Promise<{ status: number; body: string }>;

/** Turns a non-SSE upstream stream into events; throws, after emitting the events before it, when upstream reports a failure inside the stream. */
export interface StreamDecoder {
  push(chunk: Buffer, emit: (event: { data: string; event?: string }) => void): void;
}
