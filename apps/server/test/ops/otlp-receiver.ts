import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Server as GrpcServer, ServerCredentials, type Metadata, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { closeServer, listenLoopback } from '../fakes/fake-http.js';

/** One span as the collector received it, attributes decoded, ids in hex. */
export interface Decoded {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status?: { code?: number };
  attrs: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

export const SERVER = 2;
export const INTERNAL = 1;
export const CLIENT = 3;
export const STATUS_ERROR = 2;

// The part of opentelemetry/proto/collector/trace/v1 (and the trace, resource and common messages it
// uses) the tests read, with the field numbers of the OTLP definitions; protobufjs decodes with it
// and skips the fields left out.
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  repeated KeyValue attributes = 9;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; }
}
`;
const ExportRequest = protobuf.parse(OTLP_TRACE_PROTO).root.lookupType('otlp.ExportTraceServiceRequest');

function decodeValue(v: Record<string, unknown>): string | number | boolean {
  if ('stringValue' in v) return v.stringValue as string;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue as boolean;
  return JSON.stringify(v);
}

const decodeAttrs = (list: Array<{ key: string; value?: Record<string, unknown> }> | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, decodeValue(a.value ?? {})]));
/** JSON carries ids in hex already; protobuf as bytes. */
const hex = (id: unknown) => (typeof id === 'string' ? id : id ? Buffer.from(id as Uint8Array).toString('hex') : undefined);

/** The OTLP body of one export as plain objects (JSON parsed, or protobuf decoded). */
function exportBody(raw: Buffer, protobufBody: boolean): { resourceSpans?: any[] } {
  if (!protobufBody) return JSON.parse(raw.toString('utf8'));
  return ExportRequest.toObject(ExportRequest.decode(raw), { longs: Number }) as { resourceSpans?: any[] };
}

/**
 * A collector on loopback: OTLP/HTTP (JSON or protobuf, by content type) on POST /v1/traces, and
 * OTLP/gRPC when started with `grpc`. Keeps every span, raw body and request headers.
 */
export class Receiver {
  readonly spans: Decoded[] = [];
  readonly bodies: string[] = [];
  readonly headers: IncomingMessage['headers'][] = [];
  readonly contentTypes: string[] = [];
  readonly grpcMetadata: Metadata[] = [];
  private server: Server;
  private grpc?: GrpcServer;
  private waiters: Array<() => void> = [];
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const type = String(req.headers['content-type']);
        this.bodies.push(raw.toString('latin1'));
        this.headers.push(req.headers);
        this.contentTypes.push(type);
        const proto = type.includes('protobuf');
        if (req.method !== 'POST' || req.url !== '/v1/traces' || (!proto && !type.includes('json'))) {
          res.writeHead(404).end();
          return;
        }
        this.take(exportBody(raw, proto));
        if (proto) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  private take(body: { resourceSpans?: any[] }) {
    for (const rs of body.resourceSpans ?? []) {
      const resource = decodeAttrs(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          const parent = hex(s.parentSpanId);
          this.spans.push({ ...s, traceId: hex(s.traceId)!, spanId: hex(s.spanId)!, parentSpanId: parent || undefined, attrs: decodeAttrs(s.attributes), resource });
        }
      }
    }
    for (const w of this.waiters.splice(0)) w();
  }

  /** Starts HTTP; with `grpc`, a gRPC TraceService too, its address in the returned URL. */
  async start(grpc = false): Promise<string | undefined> {
    this.url = await listenLoopback(this.server);
    if (!grpc) return undefined;
    this.grpc = new GrpcServer();
    const identity = (b: Buffer) => b;
    this.grpc.addService(
      {
        Export: {
          path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
          requestStream: false,
          responseStream: false,
          requestSerialize: identity,
          requestDeserialize: identity,
          responseSerialize: identity,
          responseDeserialize: identity,
        },
      },
      {
        Export: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) => {
          this.bodies.push(call.request.toString('latin1'));
          this.grpcMetadata.push(call.metadata);
          this.take(exportBody(call.request, true));
          done(null, Buffer.alloc(0)); // an empty ExportTraceServiceResponse
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) => this.grpc!.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
    return `http://127.0.0.1:${port}`;
  }

  async close() {
    await new Promise<void>((resolve) => (this.grpc ? this.grpc.tryShutdown(() => resolve()) : resolve()));
    await closeServer(this.server);
  }

  /** Spans of one trace once `count` of them have arrived. */
  async trace(traceId: string, count: number): Promise<Decoded[]> {
    for (;;) {
      const found = this.spans.filter((s) => s.traceId === traceId);
      if (found.length >= count) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Spans matching `pick` once `count` of them have arrived. */
  async find(pick: (s: Decoded) => boolean, count = 1): Promise<Decoded[]> {
    for (;;) {
      const found = this.spans.filter(pick);
      if (found.length >= count) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/** A traceparent naming a sampled parent, so a test knows the trace id to look for. */
export function parentHeader() {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const traceId = digits(32);
  const spanId = digits(16);
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}
