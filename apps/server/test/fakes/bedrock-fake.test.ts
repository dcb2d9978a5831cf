import {
  BedrockRuntimeClient,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  type InvokeModelWithResponseStreamCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBedrockRequest } from '../../src/relay/providers/bedrock/request.js';
import { createBedrockStreamReader } from '../../src/relay/providers/bedrock/stream.js';
import { FakeBedrock } from './bedrock-upstream.js';

// The official AWS SDK signs and decodes against the fake: if its signatures verify and its event-stream
// reader parses the answers, the fake checks and speaks the real protocol. Then our own signer and reader meet the same fake.

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra });
const MODEL = 'anthropic.claude-3-5-sonnet-20241022-v2:0';
const decode = (bytes?: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

async function events(out: InvokeModelWithResponseStreamCommandOutput) {
  const seen: any[] = [];
  for await (const e of out.body!) if (e.chunk) seen.push(decode(e.chunk.bytes));
  return seen;
}

describe('FakeBedrock through @aws-sdk/client-bedrock-runtime', () => {
  const fake = new FakeBedrock('us-east-1');
  let url = '';
  const client = (accessKeyId: string, secretAccessKey: string, sessionToken?: string) =>
    new BedrockRuntimeClient({ region: 'us-east-1', endpoint: url, requestHandler: new NodeHttpHandler(), maxAttempts: 1, credentials: { accessKeyId, secretAccessKey, sessionToken } });

  beforeAll(async () => {
    url = await fake.start();
    fake.addCredentials('AKIDSDK', 'sdk/secret+key', 'SESSION');
    fake.addCredentials('AKIDOURS', 'our/secret');
  });
  afterAll(() => fake.close());

  it('verifies the SDK signature and answers InvokeModel with a Claude message', async () => {
    fake.behave('AKIDSDK', { content: 'Signed and answered', thinking: 'ok then' });
    const out = await client('AKIDSDK', 'sdk/secret+key', 'SESSION').send(new InvokeModelCommand({ modelId: MODEL, body: body(), contentType: 'application/json' }));
    const msg = decode(out.body);
    expect(msg.content.map((b: any) => b.type)).toEqual(['thinking', 'text']);
    expect(msg.content[1].text).toBe('Signed and answered');
    expect(msg.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    const got = fake.forKey('AKIDSDK')[0];
    expect(got.path).toBe('/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke');
    expect(got.headers['x-amz-security-token']).toBe('SESSION');
  });

  it('streams base64 Claude events in the binary event stream, ending with invocation metrics', async () => {
    fake.behave('AKIDSDK', { content: 'one two three', toolUse: { input: { city: 'Paris' } } });
    const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }];
    const out = await client('AKIDSDK', 'sdk/secret+key', 'SESSION').send(new InvokeModelWithResponseStreamCommand({ modelId: `us.${MODEL}`, body: body({ tools }), contentType: 'application/json' }));
    const seen = await events(out);
    expect(seen[0].type).toBe('message_start');
    expect(seen.map((e) => e.type)).not.toContain('ping');
    expect(seen.filter((e) => e.delta?.type === 'text_delta').map((e) => e.delta.text).join('')).toBe('one two three');
    expect(seen.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join('')).toBe('{"city":"Paris"}');
    expect(seen.at(-1)).toMatchObject({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 10, outputTokenCount: 13 } });
  });

  it('raises a mid-stream failure as the SDK exception', async () => {
    fake.behave('AKIDSDK', { content: 'a b c', errorAfterChunks: 1 });
    const out = await client('AKIDSDK', 'sdk/secret+key', 'SESSION').send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, body: body(), contentType: 'application/json' }));
    const err = await events(out).catch((e) => e);
    expect(err.name).toBe('ModelStreamErrorException');
  });

  it('refuses a wrong secret, a wrong session token, extraneous keys and non-Anthropic models as Bedrock does', async () => {
    const bad = async (c: BedrockRuntimeClient, input: { modelId: string; body: string }) => {
      const e: any = await c.send(new InvokeModelCommand({ ...input, contentType: 'application/json' })).catch((err) => err);
      return [e.name, e.$metadata?.httpStatusCode, e.message];
    };
    expect(await bad(client('AKIDSDK', 'wrong', 'SESSION'), { modelId: MODEL, body: body() })).toEqual([
      'InvalidSignatureException', 403, expect.stringContaining('signature we calculated does not match'),
    ]);
    expect((await bad(client('AKIDSDK', 'sdk/secret+key', 'OTHER'), { modelId: MODEL, body: body() }))[0]).toBe('UnrecognizedClientException');
    expect((await bad(client('AKIDNOBODY', 'x'), { modelId: MODEL, body: body() }))[0]).toBe('UnrecognizedClientException');
    const sdk = client('AKIDSDK', 'sdk/secret+key', 'SESSION');
    expect(await bad(sdk, { modelId: MODEL, body: body({ stream: true }) })).toEqual([
      'ValidationException', 400, 'Malformed input request: #: extraneous key [stream] is not permitted, please reformat your input and try again.',
    ]);
    expect((await bad(sdk, { modelId: MODEL, body: body({ model: 'claude' }) }))[2]).toContain('extraneous key [model]');
    expect((await bad(sdk, { modelId: MODEL, body: body({ anthropic_version: '2023-06-01' }) }))[0]).toBe('ValidationException');
    expect((await bad(sdk, { modelId: 'meta.llama3-70b-instruct-v1:0', body: body() }))[2]).toBe('The provided model identifier is invalid.');
    expect(await bad(sdk, { modelId: MODEL, body: body({ anthropic_beta: ['claude-code-20250219'] }) })).toEqual(['ValidationException', 400, 'invalid beta flag']);
    fake.behave('AKIDSDK', { status: 429 });
    expect((await bad(sdk, { modelId: MODEL, body: body() }))[0]).toBe('ThrottlingException');
    fake.behave('AKIDSDK', {});
  });

  it('accepts our own signed requests and our reader decodes its stream', async () => {
    const channelKey = 'us-east-1|AKIDOURS|our/secret';
    fake.behave('AKIDOURS', { content: 'from our signer' });
    const claude = { model: 'ignored', stream: true, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };
    const req = buildBedrockRequest({ key: channelKey, baseUrl: url, model: 'claude-3-5-sonnet-20241022', stream: true, body: claude, betas: ['interleaved-thinking-2025-05-14'], now: new Date() });
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
    expect(res.status).toBe(200);
    const reader = createBedrockStreamReader();
    const items = [...reader.push(new Uint8Array(await res.arrayBuffer()))];
    expect(items.every((i) => i.kind === 'event')).toBe(true);
    expect(items.map((i) => (i.kind === 'event' ? JSON.parse(i.data) : null)).filter((e) => e?.delta?.type === 'text_delta').map((e) => e.delta.text).join('')).toBe('from our signer');
    const got = fake.forKey('AKIDOURS')[0];
    expect(got.body).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, messages: claude.messages, anthropic_beta: ['interleaved-thinking-2025-05-14'] });

    const stale = buildBedrockRequest({ key: channelKey, baseUrl: url, model: 'claude-3-5-sonnet-20241022', stream: false, body: claude, betas: [], now: new Date(Date.now() - 10 * 60_000) });
    const refused = await fetch(stale.url, { method: 'POST', headers: stale.headers, body: stale.body });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain('Signature expired');
    const tampered = buildBedrockRequest({ key: channelKey, baseUrl: url, model: 'claude-3-5-sonnet-20241022', stream: false, body: claude, betas: [], now: new Date() });
    const changed = await fetch(tampered.url, { method: 'POST', headers: tampered.headers, body: tampered.body.replace('"hi"', '"ho"') });
    expect(changed.status).toBe(403);
  });

  it('takes a Bedrock API key as Bearer', async () => {
    const key = fake.addApiKey('ABSKfakeapikey');
    const req = buildBedrockRequest({ key, baseUrl: url, model: 'claude-sonnet-4-20250514', stream: false, body: { max_tokens: 20, messages: [{ role: 'user', content: 'x' }] }, betas: [], now: new Date() });
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
    expect(res.status).toBe(200);
    expect((await res.json()).model).toBe('claude-sonnet-4-20250514');
    const wrong = await fetch(req.url, { method: 'POST', headers: { ...req.headers, authorization: 'Bearer nope' }, body: req.body });
    expect(wrong.status).toBe(403);
  });
});
