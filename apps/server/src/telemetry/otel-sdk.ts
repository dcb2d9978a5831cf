// Imported only when tracing is on (tracing.ts): the SDK costs nothing to a gateway that does not trace.
import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { FastifyBaseLogger } from 'fastify';
import { errorType, operationName, providerName, type OtlpProtocol, type AttemptInfo, type AttemptTrace, type RelayTrace, type RelayTracer, type RequestInfo, type SettledInfo, type DoorSpan, type SpanInfo, type SpanAttributes } from './tracing.js';
import type { Usage } from '../relay/providers/types.js';

// GenAI attribute names, written out: the conventions moved to their own repository and the
// semantic-conventions package marks its copies deprecated.
const OPERATION = 'gen_ai.operation.name';
const PROVIDER = 'gen_ai.provider.name';
const REQUEST_MODEL = 'gen_ai.request.model';
const REQUEST_STREAM = 'gen_ai.request.stream';
const REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
const RESPONSE_MODEL = 'gen_ai.response.model';
const RESPONSE_ID = 'gen_ai.response.id';
const INPUT_TOKENS = 'gen_ai.usage.input_tokens';
const OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
const CACHE_READ_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
const CACHE_CREATION_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
const REASONING_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
const TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
const INPUT_MESSAGES = 'gen_ai.input.messages';
const SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
const OUTPUT_MESSAGES = 'gen_ai.output.messages';
// The gateway's own.
const CHANNEL_ID = 'one-hub.channel.id';
const ATTEMPT = 'one-hub.attempt';
const USAGE_ESTIMATED = 'one-hub.usage.estimated';

/** Captured content is cut here: a span is not the place for a whole document. */
const CONTENT_LIMIT = 16_384;

export interface TracerOptions {
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  version: string;
  ratio: number;
  captureContent: boolean;
  log: FastifyBaseLogger;
  /** The exporter (otlpExporter); OTLP/HTTP JSON when absent. */
  exporter?: SpanExporter;
}

/** Passes spans to the OTLP exporter; a failing collector is logged (at most once a minute), never thrown. */
class LoggedExporter implements SpanExporter {
  private lastWarn = 0;
  constructor(
    private readonly inner: SpanExporter,
    private readonly log: FastifyBaseLogger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && Date.now() - this.lastWarn > 60_000) {
        this.lastWarn = Date.now();
        this.log.warn({ err: result.error?.message, spans: spans.length }, 'OpenTelemetry export failed');
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

const clip = (text: string) => (text.length > CONTENT_LIMIT ? `${text.slice(0, CONTENT_LIMIT)}…` : text);
const json = (value: unknown) => clip(typeof value === 'string' ? value : JSON.stringify(value));

/** The prompt of a door's body: OpenAI `messages`/`input`/`prompt`, Anthropic `messages` + `system`, Gemini `contents` + `systemInstruction`. */
function contentAttributes(body: unknown): Attributes {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  const b = body as Record<string, unknown>;
  const out: Attributes = {};
  const input = b.messages ?? b.input ?? b.contents ?? b.prompt;
  if (input !== undefined) out[INPUT_MESSAGES] = json(input);
  const system = b.system ?? b.systemInstruction ?? b.instructions;
  if (system !== undefined) out[SYSTEM_INSTRUCTIONS] = json(system);
  return out;
}

function usageAttributes(u: Usage): Attributes {
  const attrs: Attributes = { [INPUT_TOKENS]: u.promptTokens, [OUTPUT_TOKENS]: u.completionTokens };
  const cacheRead = u.cachedTokens + u.cacheReadTokens;
  const cacheWrite = u.cacheWriteTokens + u.cacheWrite1hTokens;
  if (cacheRead) attrs[CACHE_READ_TOKENS] = cacheRead;
  if (cacheWrite) attrs[CACHE_CREATION_TOKENS] = cacheWrite;
  if (u.reasoningTokens) attrs[REASONING_TOKENS] = u.reasoningTokens;
  return attrs;
}

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

const defined = (attrs: SpanAttributes | undefined): Attributes => {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== undefined) out[k] = v;
  return out;
};

/** The span of a door served outside handleRelay (tracing.ts DoorSpan). */
class Door implements DoorSpan {
  private ended = false;
  private failure: unknown;
  private context: Context | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {}

  set(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  usage(usage: Usage): void {
    this.span.setAttributes(usageAttributes(usage));
  }

  fail(error: unknown): void {
    this.failure = error;
  }

  child(info: SpanInfo): DoorSpan {
    this.context ??= trace.setSpan(ROOT_CONTEXT, this.span);
    return startDoor(this.tracer, info, this.context);
  }

  end(at?: number): void {
    if (this.ended) return;
    this.ended = true;
    if (this.failure !== undefined) {
      this.span.setAttribute(ATTR_ERROR_TYPE, errorType(this.failure));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end(at);
  }
}

function startDoor(tracer: Tracer, info: SpanInfo, parent: Context): Door {
  const span = tracer.startSpan(info.name, { kind: KINDS[info.kind ?? 'server'], startTime: info.startedAt, attributes: defined(info.attributes) }, parent);
  return new Door(tracer, span);
}

function endpointAddress(baseUrl: string): Attributes {
  try {
    const u = new URL(baseUrl);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { [ATTR_SERVER_ADDRESS]: u.hostname, [ATTR_SERVER_PORT]: port };
  } catch {
    return {};
  }
}

class Attempt implements AttemptTrace {
  private ended = false;
  constructor(private readonly span: Span) {}

  status(code: number): void {
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, code);
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) {
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number') this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      this.span.setAttribute(ATTR_ERROR_TYPE, errorType(error));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

class Request implements RelayTrace {
  private ended = false;
  private failure: unknown;
  private attempts = 0;
  private context: Context | undefined;
  private responseModel: string | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly info: RequestInfo,
    private readonly captureContent: boolean,
  ) {}

  attempt(a: AttemptInfo): AttemptTrace {
    const provider = providerName(a.adapter, a.channelType);
    // The request's provider and channel are those of its last attempt (the one that answered, or failed last).
    this.span.setAttribute(PROVIDER, provider);
    this.span.setAttribute(CHANNEL_ID, a.channelId);
    this.context ??= trace.setSpan(ROOT_CONTEXT, this.span);
    const op = operationName(this.info.endpoint);
    const span = this.tracer.startSpan(
      `${op} ${a.upstreamModel}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [OPERATION]: op,
          [PROVIDER]: provider,
          [REQUEST_MODEL]: a.upstreamModel,
          [CHANNEL_ID]: a.channelId,
          [ATTEMPT]: ++this.attempts,
          ...endpointAddress(a.baseUrl),
        },
      },
      this.context,
    );
    return new Attempt(span);
  }

  answered(body: Record<string, unknown>): void {
    const model = body.model ?? body.modelVersion;
    if (typeof model === 'string' && model) this.responseModel = model;
    if (typeof body.id === 'string' && body.id.length <= 200) this.span.setAttribute(RESPONSE_ID, body.id);
    if (!this.captureContent) return;
    const output = body.choices ?? body.content ?? body.candidates ?? body.output ?? body.data;
    if (output !== undefined) this.span.setAttribute(OUTPUT_MESSAGES, json(output));
  }

  settled(s: SettledInfo): void {
    const attrs: Attributes = {
      [CHANNEL_ID]: s.channelId,
      [RESPONSE_MODEL]: this.responseModel ?? s.upstreamModel,
      [USAGE_ESTIMATED]: s.estimated,
      ...usageAttributes(s.usage),
    };
    if (this.info.stream && s.firstResponseMs !== undefined) attrs[TIME_TO_FIRST_CHUNK] = s.firstResponseMs / 1000;
    this.span.setAttributes(attrs);
    if (s.broke) this.failure = { code: s.broke };
  }

  fail(error: unknown): void {
    this.failure = error;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.failure !== undefined) {
      this.span.setAttribute(ATTR_ERROR_TYPE, errorType(this.failure));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

class Tracing implements RelayTracer {
  private readonly tracer: Tracer;
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(
    private readonly provider: BasicTracerProvider,
    private readonly captureContent: boolean,
  ) {
    this.tracer = provider.getTracer('one-hub.relay');
  }

  private parentOf(headers: RequestInfo['headers'] | undefined): Context {
    return headers?.traceparent ? this.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter) : ROOT_CONTEXT;
  }

  span(info: SpanInfo): DoorSpan {
    return startDoor(this.tracer, info, this.parentOf(info.headers));
  }

  request(info: RequestInfo): RelayTrace {
    const parent = this.parentOf(info.headers);
    const op = operationName(info.endpoint);
    const attributes: Attributes = { [OPERATION]: op, [REQUEST_MODEL]: info.model, [REQUEST_STREAM]: info.stream };
    if (info.maxOutput !== undefined) attributes[REQUEST_MAX_TOKENS] = info.maxOutput;
    if (this.captureContent) Object.assign(attributes, contentAttributes(info.body));
    // The gateway serves the caller's request (SERVER); each upstream attempt is a CLIENT span under it.
    const span = this.tracer.startSpan(`${op} ${info.model}`, { kind: SpanKind.SERVER, startTime: info.startedAt, attributes }, parent);
    return new Request(this.tracer, span, info, this.captureContent);
  }

  forceFlush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

/**
 * The official OTLP exporter of a transport. The HTTP/JSON one is always loaded with this file; the
 * protobuf and gRPC ones (gRPC brings @grpc/grpc-js) only when chosen.
 */
export async function otlpExporter(protocol: OtlpProtocol, url: string, headers: Record<string, string>): Promise<SpanExporter> {
  if (protocol === 'http/json') return new OTLPTraceExporter({ url, headers });
  if (protocol === 'http/protobuf') {
    const { OTLPTraceExporter: ProtoExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
    return new ProtoExporter({ url, headers });
  }
  const [{ OTLPTraceExporter: GrpcExporter }, { Metadata }] = await Promise.all([import('@opentelemetry/exporter-trace-otlp-grpc'), import('@grpc/grpc-js')]);
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key.toLowerCase(), value);
  // http:// is a plain connection, https:// TLS (the exporter reads the scheme).
  return new GrpcExporter({ url, metadata });
}

export function createTracer(opts: TracerOptions): RelayTracer {
  const exporter = new LoggedExporter(opts.exporter ?? new OTLPTraceExporter({ url: opts.url, headers: opts.headers }), opts.log);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName, [ATTR_SERVICE_VERSION]: opts.version }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(opts.ratio) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return new Tracing(provider, opts.captureContent);
}
