import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { relayFixture } from '../relay/fixture.js';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';
import { CLIENT, parentHeader as parent, Receiver, SERVER, STATUS_ERROR } from './otlp-receiver.js';
import { createTracer } from '../../src/telemetry/otel-sdk.js';
import { errorType, operationName, parseHeaders, providerName, tracesProtocol, tracesUrl } from '../../src/telemetry/tracing.js';
import { loadConfig } from '../../src/config/env.js';
import type { FastifyBaseLogger } from 'fastify';

const PROMPT = 'the confidential prompt words 7f3a';

describe('OpenTelemetry traces of relay requests (issue 39.6)', () => {
  const receiver = new Receiver();
  let f: DoorFixture;

  beforeAll(async () => {
    await receiver.start();
    f = await doorFixture('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=abc%20def' });
    for (const model of ['otel-json', 'otel-stream', 'claude-sonnet-4-5-20250929']) await f.server.ctx.db.insertInto('prices').values({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
  });
  afterAll(async () => {
    await f?.close();
    await receiver.close();
  });

  /** The request's spans: the SERVER span the gateway answered with (its trace id) and its CLIENT children. */
  async function spansOf(requestTrace: () => Promise<string>, children: number) {
    const traceId = await requestTrace();
    await f.server.ctx.tracer!.forceFlush();
    const spans = await receiver.trace(traceId, children + 1);
    const root = spans.filter((s) => s.kind === SERVER);
    expect(root).toHaveLength(1);
    const kids = spans.filter((s) => s.kind === CLIENT).sort((a, b) => Number(a.attrs['one-hub.attempt']) - Number(b.attrs['one-hub.attempt']));
    for (const k of kids) expect(k.parentSpanId).toBe(root[0].spanId);
    return { root: root[0], kids };
  }

  let keys: string[] = [];

  it('a JSON chat retried once: one SERVER span with the GenAI attributes and a CLIENT child per attempt', async () => {
    await f.setOption('RetryTimes', 1);
    const bad = await f.addChannel({ key: 'otel-bad-key-secret', models: 'otel-json', priority: 10, model_mapping: JSON.stringify({ 'otel-json': '+otel-json-upstream' }) });
    const good = await f.addChannel({ key: 'otel-good-key-secret', models: 'otel-json', priority: 0, model_mapping: JSON.stringify({ 'otel-json': '+otel-json-upstream' }) });
    f.fake.behave('otel-bad-key-secret', { status: 500, errorBody: { error: { message: 'boom', type: 'server_error' } } });
    f.fake.behave('otel-good-key-secret', { usage: { prompt: 12, completion: 5, cached: 4 } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    keys = [key, 'otel-bad-key-secret', 'otel-good-key-secret'];
    const tp = parent();
    const { root, kids } = await spansOf(async () => {
      const answer = await f.openai(key).chat.completions.create({ model: 'otel-json', messages: [{ role: 'user', content: PROMPT }] }, { headers: { traceparent: tp.header } });
      expect(answer.choices[0].message.content).toBeTruthy();
      return tp.traceId;
    }, 2);
    await f.setOption('RetryTimes', 0);

    expect(root.name).toBe('chat otel-json');
    expect(root.parentSpanId).toBe(tp.spanId); // the caller's traceparent is the parent
    expect(root.resource['service.name']).toBe('one-hub');
    expect(root.attrs).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'otel-json',
      'gen_ai.response.model': 'otel-json-upstream',
      'gen_ai.request.stream': false,
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.usage.cache_read.input_tokens': 4,
      'one-hub.channel.id': good,
    });
    expect(root.attrs['error.type']).toBeUndefined();
    expect(root.attrs['gen_ai.response.time_to_first_chunk']).toBeUndefined();
    expect(root.status?.code ?? 0).not.toBe(STATUS_ERROR);

    expect(kids).toHaveLength(2);
    expect(kids[0].name).toBe('chat otel-json-upstream');
    expect(kids[0].attrs).toMatchObject({ 'one-hub.channel.id': bad, 'http.response.status_code': 500, 'gen_ai.provider.name': 'openai', 'server.address': '127.0.0.1' });
    expect(typeof kids[0].attrs['error.type']).toBe('string');
    expect(kids[0].status?.code).toBe(STATUS_ERROR);
    expect(kids[1].attrs).toMatchObject({ 'one-hub.channel.id': good, 'http.response.status_code': 200, 'gen_ai.request.model': 'otel-json-upstream' });
    expect(kids[1].attrs['error.type']).toBeUndefined();
    // The export carried the configured collector headers, as protobuf (the OpenTelemetry default).
    expect(receiver.headers.at(-1)?.['x-collector-key']).toBe('abc def');
    expect(receiver.contentTypes.at(-1)).toBe('application/x-protobuf');
  });

  it('a streamed chat: tokens, provider, channel and time to first chunk on the request span', async () => {
    const ch = await f.addChannel({ key: 'otel-stream-key-secret', models: 'otel-stream' });
    f.fake.behave('otel-stream-key-secret', { content: 'one two three', usage: { prompt: 9, completion: 3 } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    keys.push(key, 'otel-stream-key-secret');
    const tp = parent();
    const { root, kids } = await spansOf(async () => {
      const stream = await f.openai(key).chat.completions.create(
        { model: 'otel-stream', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: PROMPT }] },
        { headers: { traceparent: tp.header } },
      );
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toContain('three');
      return tp.traceId;
    }, 1);
    expect(root.name).toBe('chat otel-stream');
    expect(root.attrs).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'otel-stream',
      'gen_ai.response.model': 'otel-stream',
      'gen_ai.request.stream': true,
      'gen_ai.usage.input_tokens': 9,
      'gen_ai.usage.output_tokens': 3,
      'one-hub.channel.id': ch,
    });
    const ttft = root.attrs['gen_ai.response.time_to_first_chunk'];
    expect(typeof ttft).toBe('number');
    expect(ttft as number).toBeGreaterThan(0);
    expect(ttft as number).toBeLessThan(30);
    expect(kids).toHaveLength(1);
    expect(kids[0].attrs).toMatchObject({ 'one-hub.channel.id': ch, 'http.response.status_code': 200 });
  });

  it('a streamed Claude message on an Anthropic channel: provider anthropic, cache reads and writes', async () => {
    const model = 'claude-sonnet-4-5-20250929';
    const ch = await f.addChannel({ type: 14, key: 'otel-claude-key-secret', base_url: f.claude.url, models: model });
    f.claude.behave('otel-claude-key-secret', { cache: { read: 30, creation: 5 } });
    const { key } = await f.newUser({ quota: 1_000_000 });
    keys.push(key, 'otel-claude-key-secret');
    const tp = parent();
    const { root, kids } = await spansOf(async () => {
      const stream = await f.anthropic(key).messages.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: PROMPT }] }, { headers: { traceparent: tp.header } });
      for await (const event of stream) void event;
      return tp.traceId;
    }, 1);
    expect(root.name).toBe(`chat ${model}`);
    expect(root.attrs).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': model,
      'gen_ai.request.max_tokens': 100,
      'gen_ai.request.stream': true,
      'gen_ai.usage.cache_read.input_tokens': 30,
      'gen_ai.usage.cache_creation.input_tokens': 5,
      'one-hub.channel.id': ch,
    });
    // Input tokens count the cached ones too, as the conventions ask.
    expect(root.attrs['gen_ai.usage.input_tokens']).toBe(10 + 30 + 5);
    expect(root.attrs['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(root.attrs['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    expect(kids[0].attrs).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'http.response.status_code': 200, 'one-hub.channel.id': ch });
  });

  it('a request no channel serves is one failed span with error.type', async () => {
    const { key } = await f.newUser({ quota: 1_000_000 });
    const tp = parent();
    const { root, kids } = await spansOf(async () => {
      await expect(f.openai(key).chat.completions.create({ model: 'otel-nobody', messages: [{ role: 'user', content: PROMPT }] }, { headers: { traceparent: tp.header } })).rejects.toThrow();
      return tp.traceId;
    }, 0);
    expect(kids).toHaveLength(0);
    expect(root.name).toBe('chat otel-nobody');
    expect(root.status?.code).toBe(STATUS_ERROR);
    expect(typeof root.attrs['error.type']).toBe('string');
  });

  it('no key, token or prompt text in anything exported (content capture is off by default)', () => {
    expect(keys.length).toBeGreaterThanOrEqual(4);
    const everything = receiver.bodies.join('\n');
    expect(everything.length).toBeGreaterThan(0);
    for (const secret of [...keys, ...keys.map((k) => k.replace(/^sk-/, '')), PROMPT]) expect(everything).not.toContain(secret);
    for (const s of receiver.spans) {
      expect(s.attrs['gen_ai.input.messages']).toBeUndefined();
      expect(s.attrs['gen_ai.output.messages']).toBeUndefined();
    }
  });
});

describe('tracing switched off or sampled out', () => {
  it('without an endpoint no SDK tracer exists and not one export request is made', async () => {
    const receiver = new Receiver();
    await receiver.start();
    // Only the standard variable's absence turns tracing off: the ratio and service name alone do not.
    const f = await relayFixture('sqlite', { OTEL_SERVICE_NAME: 'ignored', OTEL_SAMPLE_RATIO: '1' });
    try {
      expect(f.server.ctx.tracer).toBeUndefined();
      await f.addChannel({ key: 'off-key', models: 'test-model' });
      const { key } = await f.newUser({ quota: 1_000_000 });
      await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      await f.close(); // a tracer would flush here
    }
    expect(receiver.bodies).toEqual([]);
    await receiver.close();
  });

  it('a ratio of 0 exports nothing for unsampled callers, follows a caller whose traceparent is sampled, and flushes on shutdown', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const f = await relayFixture('sqlite', {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SAMPLE_RATIO: '0',
      OTEL_SERVICE_NAME: 'hub-under-test',
    });
    const traceId = 'a'.repeat(31) + 'b';
    try {
      await f.addChannel({ key: 'ratio-key', models: 'test-model' });
      const { key } = await f.newUser({ quota: 1_000_000 });
      const ask = { model: 'test-model', messages: [{ role: 'user' as const, content: 'hi' }] };
      await f.openai(key).chat.completions.create(ask);
      await f.server.ctx.tracer!.forceFlush();
      expect(receiver.spans).toEqual([]);
      await f.openai(key).chat.completions.create(ask, { headers: { traceparent: `00-${traceId}-${'c'.repeat(16)}-01` } });
      // No flush asked for: the batch (5 s by default) goes out when the server closes.
      expect(receiver.spans).toEqual([]);
    } finally {
      await f.close();
    }
    try {
      // Already there when close returns: the shutdown waited for the export (no waiting on the batch timer).
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      expect(spans.map((s) => s.kind).sort()).toEqual([SERVER, CLIENT]);
      expect(spans[0].resource['service.name']).toBe('hub-under-test');
      // Only the sampled request reached the collector, as OTLP/HTTP JSON.
      expect(receiver.spans).toHaveLength(2);
      expect(receiver.contentTypes).toEqual(['application/json']);
      expect(JSON.parse(receiver.bodies[0]).resourceSpans).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('the SDK is imported only by telemetry/otel-sdk.ts, and that file only by a dynamic import', () => {
    const src = join(import.meta.dirname, '../../src');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    })(src);
    const sdkUsers: string[] = [];
    const staticUsers: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const name = relative(src, file);
      if (/from '@opentelemetry\/(?!api')/.test(text) && name !== join('telemetry', 'otel-sdk.ts')) sdkUsers.push(name);
      if (/^import [^;]*from '[./]*(telemetry\/)?otel-sdk\.js'/m.test(text)) staticUsers.push(name);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(sdkUsers).toEqual([]);
    expect(staticUsers).toEqual([]);
    expect(readFileSync(join(src, 'telemetry/tracing.ts'), 'utf8')).toContain("await import('./otel-sdk.js')");
  });
});

describe('OTLP over gRPC (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc)', () => {
  it('a JSON and a streamed chat reach a gRPC collector with their attributes and the configured metadata', async () => {
    const receiver = new Receiver();
    const address = await receiver.start(true);
    const f = await relayFixture('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: address!, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=grpc-abc' });
    try {
      const ch = await f.addChannel({ key: 'grpc-key', models: 'test-model' });
      f.fake.behave('grpc-key', { content: 'alpha beta', usage: { prompt: 7, completion: 2 } });
      const { key } = await f.newUser({ quota: 1_000_000 });
      const plain = parent();
      await f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] }, { headers: { traceparent: plain.header } });
      const streamed = parent();
      const stream = await f.openai(key).chat.completions.create(
        { model: 'test-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] },
        { headers: { traceparent: streamed.header } },
      );
      for await (const chunk of stream) void chunk;
      await f.server.ctx.tracer!.forceFlush();
      const [a, b] = [await receiver.trace(plain.traceId, 2), await receiver.trace(streamed.traceId, 2)];
      const rootOf = (spans: typeof a) => spans.find((s) => s.kind === SERVER)!;
      expect(rootOf(a).attrs).toMatchObject({ 'gen_ai.request.model': 'test-model', 'gen_ai.request.stream': false, 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.output_tokens': 2, 'one-hub.channel.id': ch });
      expect(rootOf(b).attrs).toMatchObject({ 'gen_ai.request.stream': true, 'gen_ai.usage.output_tokens': 2, 'one-hub.channel.id': ch });
      expect(rootOf(b).attrs['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
      expect(a.find((s) => s.kind === CLIENT)!.parentSpanId).toBe(rootOf(a).spanId);
      expect(receiver.grpcMetadata.at(-1)?.get('x-collector-key')).toEqual(['grpc-abc']);
      expect(receiver.contentTypes).toEqual([]); // nothing went over HTTP
    } finally {
      await f.close();
      await receiver.close();
    }
  });
});

describe('content capture (OTEL_CAPTURE_CONTENT)', () => {
  const silent = { warn() {}, info() {} } as unknown as FastifyBaseLogger;
  const run = async (captureContent: boolean) => {
    const exporter = new InMemorySpanExporter();
    const tracer = createTracer({ url: 'http://127.0.0.1:1/v1/traces', headers: {}, serviceName: 'one-hub', version: 'test', ratio: 1, captureContent, log: silent, exporter });
    const t = tracer.request({ endpoint: 'messages', model: 'claude-x', stream: false, startedAt: Date.now(), headers: {}, body: { system: 'be brief', messages: [{ role: 'user', content: PROMPT }] } });
    t.attempt({ channelId: 3, adapter: 'anthropic', channelType: 14, upstreamModel: 'claude-x', baseUrl: 'https://api.anthropic.com' }).end();
    t.answered({ model: 'claude-x-2025', content: [{ type: 'text', text: 'short answer' }] });
    t.end();
    await tracer.forceFlush();
    const spans = exporter.getFinishedSpans();
    await tracer.shutdown();
    return spans;
  };

  it('off: no content; on: the prompt, the system text and the answer are recorded on the request span', async () => {
    const off = await run(false);
    expect(off).toHaveLength(2);
    for (const s of off) expect(JSON.stringify(s.attributes)).not.toContain(PROMPT);
    const on = await run(true);
    const root = on.find((s) => s.name === 'chat claude-x' && s.kind === 1 /* SpanKind.SERVER */)!;
    expect(root.attributes['gen_ai.input.messages']).toContain(PROMPT);
    expect(root.attributes['gen_ai.system_instructions']).toContain('be brief');
    expect(root.attributes['gen_ai.output.messages']).toContain('short answer');
    const client = on.find((s) => s.kind === 2 /* SpanKind.CLIENT */)!;
    expect(client.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'server.address': 'api.anthropic.com', 'server.port': 443 });
    expect(JSON.stringify(client.attributes)).not.toContain(PROMPT);
  });
});

describe('tracing helpers', () => {
  it('operation and provider names follow the GenAI well-known values', () => {
    expect(['chat/completions', 'messages', 'responses', 'generateContent', 'embeddings', 'embedContent', 'completions', 'images/generations', 'audio/speech'].map((e) => operationName(e as never))).toEqual([
      'chat',
      'chat',
      'chat',
      'generate_content',
      'embeddings',
      'embeddings',
      'text_completion',
      'image_generation',
      'audio_speech',
    ]);
    expect(providerName('openai-compatible', 1)).toBe('openai');
    expect(providerName('openai-compatible', 8)).toBe('openai-compatible');
    expect(providerName('gemini', 24)).toBe('gcp.gemini');
    expect(providerName('vertex', 42)).toBe('gcp.vertex_ai');
    expect(providerName('bedrock', 40)).toBe('aws.bedrock');
    expect(providerName('azure', 3)).toBe('azure.ai.openai');
    expect(providerName('moonshot', 29)).toBe('moonshot');
  });

  it('error.type stays low-cardinality and never carries a message', () => {
    expect(errorType({ status: 429, code: 'rate_limit_exceeded', type: 'x' })).toBe('rate_limit_exceeded');
    expect(errorType({ status: 500, code: null, type: 'upstream_error' })).toBe('upstream_error');
    expect(errorType({ status: 502, code: 'key sk-abc leaked in text', type: 'has spaces too' })).toBe('502');
    expect(errorType(new Error('boom sk-abc'))).toBe('_OTHER');
  });

  it('the traces URL and the export headers come from the standard variables', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined })).toBe('http://c:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://d/x' })).toBe('http://d/x');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined })).toBeUndefined();
    // gRPC has no path: the base URL is the collector's address.
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined }, 'grpc')).toBe('http://c:4317');
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toBe('grpc');
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined })).toBe('http/json');
    expect(parseHeaders('api-key=a%3Db, x-team = core ,broken,=nokey')).toEqual({ 'api-key': 'a=b', 'x-team': 'core' });
  });

  it('a bad setting stops start-up naming the key', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadConfig({ OTEL_SAMPLE_RATIO: '1.5' })).toThrow(/OTEL_SAMPLE_RATIO/);
    expect(loadConfig({}).OTEL_SAMPLE_RATIO).toBe(1);
    expect(loadConfig({}).OTEL_CAPTURE_CONTENT).toBe(false);
    expect(loadConfig({}).OTEL_SERVICE_NAME).toBe('one-hub');
    expect(loadConfig({}).OTEL_EXPORTER_OTLP_PROTOCOL).toBe('http/protobuf');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http' })).toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/);
  });
});
