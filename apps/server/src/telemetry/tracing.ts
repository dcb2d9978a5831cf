import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env.js';
import type { Endpoint, Usage } from '../relay/providers/types.js';

/**
 * OpenTelemetry traces of relay requests (GenAI semantic conventions). Off unless an OTLP endpoint
 * is configured: then, and only then, the SDK is imported (otel-sdk.ts) and `ctx.tracer` is set.
 * The relay checks that one property; with it unset no span object is ever made.
 */
export interface RelayTracer {
  /** The span of one relay request, started at `startedAt`; a child of the caller's `traceparent` when it sent one. */
  request(info: RequestInfo): RelayTrace;
  /** A span of what a door serves outside handleRelay: a refusal, a Realtime session, a task, an MCP tool call (door-spans.ts). */
  span(info: SpanInfo): DoorSpan;
  /** Exports the spans ended so far. */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

export interface RequestInfo {
  endpoint: Endpoint;
  model: string;
  stream: boolean;
  startedAt: number;
  maxOutput?: number;
  headers: IncomingHttpHeaders;
  /** The request body: read only when content capture is on. */
  body: unknown;
}

/** What the trace needs to know of the channel an attempt goes to. */
export interface AttemptInfo {
  channelId: number;
  /** The channel's adapter (`anthropic`, `openai-compatible`, a family profile's name) and type id. */
  adapter: string;
  channelType: number;
  upstreamModel: string;
  baseUrl: string;
}

export interface RelayTrace {
  /** A child span for one upstream attempt; ends with the answer, or with the failure that ended it. */
  attempt(info: AttemptInfo): AttemptTrace;
  /** A complete (non-stream) answer's JSON, for the response model (and its content when capture is on). */
  answered(json: Record<string, unknown>): void;
  /** The answer was billed: its usage, the channel that gave it, the first byte's time for a stream. */
  settled(outcome: SettledInfo): void;
  /** The request failed (recorded on end; the last failure wins). */
  fail(error: unknown): void;
  /** Ends the span; safe to call twice. */
  end(): void;
}

export interface SettledInfo {
  channelId: number;
  upstreamModel: string;
  usage: Usage;
  estimated: boolean;
  firstResponseMs?: number;
  /** The answer broke off (stream cut, client left): a low-cardinality reason. */
  broke?: string;
}

export interface AttemptTrace {
  /** Upstream answered with this HTTP status. */
  status(code: number): void;
  /** Ends the attempt, failed when `error` is given; safe to call twice. */
  end(error?: unknown): void;
}

/** Span attributes; an undefined value is left out. Never a key, a token or prompt text. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface SpanInfo {
  name: string;
  /** SERVER (the default: the gateway serves the caller), CLIENT (a call upstream) or INTERNAL. */
  kind?: 'server' | 'client' | 'internal';
  startedAt?: number;
  /** The caller's headers: a `traceparent` there makes the span its child (ignored for a child span). */
  headers?: IncomingHttpHeaders;
  attributes?: SpanAttributes;
}

export interface DoorSpan {
  set(attributes: SpanAttributes): void;
  /** Token usage as the GenAI usage attributes (input, output, cache read and write, reasoning). */
  usage(usage: Usage): void;
  /** Failed (recorded on end; the last failure wins): `error.type` and an error status. */
  fail(error: unknown): void;
  /** A span under this one. */
  child(info: SpanInfo): DoorSpan;
  /** Ends the span (at `at` when given); safe to call twice. */
  end(at?: number): void;
}

/** GenAI `gen_ai.operation.name` of a relay door (well-known values where one fits, the door's own name otherwise). */
export function operationName(endpoint: Endpoint): string {
  switch (endpoint) {
    case 'chat/completions':
    case 'messages':
    case 'responses':
    case 'interactions':
      return 'chat';
    case 'generateContent':
      return 'generate_content';
    case 'completions':
      return 'text_completion';
    case 'embeddings':
    case 'embedContent':
    case 'batchEmbedContents':
      return 'embeddings';
    default:
      // images/generations → image_generation, audio/speech → audio_speech, responses/compact → responses_compact …
      return endpoint.replace('images/generations', 'image_generation').replace(/\//g, '_');
  }
}

/** Adapter names → GenAI `gen_ai.provider.name` well-known values; other families keep their adapter's name. */
const PROVIDER_NAMES: Record<string, string> = {
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  azure: 'azure.ai.openai',
  'azure-v1': 'azure.ai.openai',
  deepseek: 'deepseek',
  mistral: 'mistral_ai',
  groq: 'groq',
  xai: 'x_ai',
  cohere: 'cohere',
};

/** OpenAI's own channel type; the other types served by the OpenAI-compatible adapter are `openai-compatible`. */
const OPENAI_TYPE = 1;

export function providerName(adapter: string, channelType: number): string {
  if (adapter === 'openai-compatible' && channelType === OPENAI_TYPE) return 'openai';
  return PROVIDER_NAMES[adapter] ?? adapter;
}

/** A low-cardinality `error.type`: the gateway's error code, else its type, else the HTTP status; `_OTHER` for anything else. */
export function errorType(error: unknown): string {
  const e = error as { code?: unknown; type?: unknown; status?: unknown } | undefined;
  const plain = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : undefined);
  return plain(e?.code) ?? plain(e?.type) ?? (typeof e?.status === 'number' ? String(e.status) : '_OTHER');
}

/** `key=value,key2=value2` (values percent-decoded, as OTEL_EXPORTER_OTLP_HEADERS is written) → headers. */
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // kept as written
    }
    if (key) out[key] = value;
  }
  return out;
}

export type OtlpProtocol = Config['OTEL_EXPORTER_OTLP_PROTOCOL'];

type EndpointKeys = 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';

/** The transport of traces: the traces-only key wins over the general one (http/protobuf by default, as in OpenTelemetry). */
export function tracesProtocol(config: Pick<Config, 'OTEL_EXPORTER_OTLP_PROTOCOL' | 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'>): OtlpProtocol {
  return config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
}

/** The traces URL from the configuration, or undefined when tracing is off. gRPC has no path: the base URL is the address. */
export function tracesUrl(config: Pick<Config, EndpointKeys>, protocol: OtlpProtocol = 'http/protobuf'): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  if (protocol === 'grpc') return config.OTEL_EXPORTER_OTLP_ENDPOINT;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

/** Starts tracing when an endpoint is configured (the SDK is loaded only then); undefined when it is off. */
export async function startTracing(config: Config, log: FastifyBaseLogger, version: string): Promise<RelayTracer | undefined> {
  const protocol = tracesProtocol(config);
  const url = tracesUrl(config, protocol);
  if (!url) return undefined;
  const { createTracer, otlpExporter } = await import('./otel-sdk.js');
  const headers = parseHeaders(config.OTEL_EXPORTER_OTLP_HEADERS);
  const tracer = createTracer({
    url,
    headers,
    exporter: await otlpExporter(protocol, url, headers),
    serviceName: config.OTEL_SERVICE_NAME,
    version,
    ratio: config.OTEL_SAMPLE_RATIO,
    captureContent: config.OTEL_CAPTURE_CONTENT,
    log,
  });
  const where = new URL(url); // logged without any credentials the URL may carry
  log.info({ url: `${where.protocol}//${where.host}${where.pathname}`, protocol, ratio: config.OTEL_SAMPLE_RATIO }, 'OpenTelemetry tracing on');
  return tracer;
}
