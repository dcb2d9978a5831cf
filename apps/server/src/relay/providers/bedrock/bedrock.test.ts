import { describe, expect, it } from 'vitest';
import { bedrockChunk, bedrockException, encodeEventStreamMessage } from '../../../../test/fakes/eventstream-encode.js';
import { EventStreamDecoder, EventStreamError } from './eventstream.js';
import { anthropicNamesOf, bedrockClaudeBody, bedrockModelId, bedrockModelsRequest, betaList, buildBedrockRequest, parseBedrockKey } from './request.js';
import { amzDate, signature, signingKey, signRequest } from './sigv4.js';
import { createBedrockStreamReader } from './stream.js';
import { bedrockError } from './index.js';

// AWS's published SigV4 test suite (credentials AKIDEXAMPLE, 2015-08-30T12:36:00Z, us-east-1, service "service").
const suite = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1', service: 'service' };
const suiteNow = new Date('2015-08-30T12:36:00Z');

describe('SigV4', () => {
  it.each([
    ['get-vanilla', 'GET', '/', '', '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    ['post-vanilla', 'POST', '/', '', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    ['get-vanilla-query-order-key-case', 'GET', '/', 'Param2=value2&Param1=value1', 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    ['post-vanilla-empty-query-value', 'POST', '/', 'Param1=value1', '28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11'],
    ['get-space', 'GET', '/example space/', '', '652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741'],
  ])('signs the suite vector %s', (_name, method, path, query, expected) => {
    const headers = signRequest({ method, host: 'example.amazonaws.com', path, query, headers: {}, body: '', now: suiteNow }, suite);
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${expected}`);
  });

  it('matches the IAM ListUsers example of the SigV4 documentation (signed content-type)', () => {
    const headers = signRequest(
      { method: 'GET', host: 'iam.amazonaws.com', path: '/', query: 'Action=ListUsers&Version=2010-05-08', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: '', now: suiteNow },
      { ...suite, service: 'iam' },
    );
    expect(headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7');
    expect(signingKey(suite.secretAccessKey, '20150830', 'us-east-1', 'iam').toString('hex')).toBe('c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9');
  });

  it('signs a session token and encodes the wire path once more (Bedrock ids contain ":")', () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    const headers = signRequest({ method: 'POST', host: 'h', path: '/model/anthropic.claude-x-v1%3A0/invoke', headers: {}, body: '{}', now }, { ...suite, sessionToken: 'TOKEN' });
    expect(amzDate(now)).toBe('20260102T030405Z');
    expect(headers['x-amz-security-token']).toBe('TOKEN');
    expect(headers.authorization).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token,');
    const parts = signature({ method: 'POST', host: 'h', path: '/model/anthropic.claude-x-v1%3A0/invoke', headers, body: '{}', now }, suite, ['host', 'x-amz-date']);
    expect(parts.canonicalRequest.split('\n')[1]).toBe('/model/anthropic.claude-x-v1%253A0/invoke');
  });
});

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
// aws-c-event-stream's test vectors: an empty message, a payload-only message and one with a content-type header.
const EMPTY = hex('00000010 00000000 05c248eb 7d98c8ff');
const PAYLOAD = Buffer.concat([hex('0000001d 00000000 fd528c5a'), Buffer.from("{'foo':'bar'}"), hex('c3653936')]);
const WITH_HEADER = Buffer.concat([hex('0000003d 00000020 07fd8396 0c'), Buffer.from('content-type'), hex('07 0010'), Buffer.from('application/json'), Buffer.from("{'foo':'bar'}"), hex('8d9c08b1')]);

describe('event-stream decoding', () => {
  it('decodes the published vectors, fed whole and byte by byte', () => {
    const all = Buffer.concat([EMPTY, PAYLOAD, WITH_HEADER]);
    const expected = [
      { headers: {}, payload: Buffer.alloc(0) },
      { headers: {}, payload: Buffer.from("{'foo':'bar'}") },
      { headers: { 'content-type': 'application/json' }, payload: Buffer.from("{'foo':'bar'}") },
    ];
    expect(new EventStreamDecoder().push(all)).toEqual(expected);
    const decoder = new EventStreamDecoder();
    const one = [...all].flatMap((byte) => decoder.push(Uint8Array.of(byte)));
    expect(one).toEqual(expected);
    expect(decoder.pending).toBe(0);
  });

  it('the test encoder reproduces the vectors', () => {
    expect(encodeEventStreamMessage({}, '')).toEqual(EMPTY);
    expect(encodeEventStreamMessage({}, "{'foo':'bar'}")).toEqual(PAYLOAD);
    expect(encodeEventStreamMessage({ 'content-type': 'application/json' }, "{'foo':'bar'}")).toEqual(WITH_HEADER);
  });

  it.each([
    ['a flipped prelude bit', (b: Buffer) => b.writeUInt8(0xc3, 9), 'prelude checksum'],
    ['a flipped payload bit', (b: Buffer) => b.writeUInt8(0x7c, 12), 'message checksum'],
    ['a flipped message checksum', (b: Buffer) => b.writeUInt8(0, b.length - 1), 'message checksum'],
  ])('rejects %s', (_name, corrupt, message) => {
    const bytes = Buffer.from(PAYLOAD);
    corrupt(bytes);
    expect(() => new EventStreamDecoder().push(bytes)).toThrow(EventStreamError);
    expect(() => new EventStreamDecoder().push(bytes)).toThrow(message);
  });

  it('keeps an incomplete message pending', () => {
    const decoder = new EventStreamDecoder();
    expect(decoder.push(PAYLOAD.subarray(0, 20))).toEqual([]);
    expect(decoder.pending).toBe(20);
  });
});

describe('Bedrock stream reading', () => {
  it('turns base64 chunk events into Claude events and exceptions into failures', () => {
    const reader = createBedrockStreamReader();
    const start = { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } };
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'héllo' } };
    const bytes = Buffer.concat([bedrockChunk(start), bedrockChunk(delta), bedrockException('throttlingException', 'Too many requests')]);
    const items = [...reader.push(bytes.subarray(0, 50)), ...reader.push(bytes.subarray(50))];
    expect(items).toEqual([
      { kind: 'event', type: 'message_start', data: JSON.stringify(start) },
      { kind: 'event', type: 'content_block_delta', data: JSON.stringify(delta) },
      { kind: 'error', type: 'throttlingException', message: 'Too many requests' },
    ]);
    expect(reader.truncated()).toBe(false);
    reader.push(bedrockChunk(start).subarray(0, 30));
    expect(reader.truncated()).toBe(true);
  });
});

describe('Bedrock request shaping', () => {
  it.each([
    ['us-east-1|AKID|SECRET', { region: 'us-east-1', kind: 'sigv4', accessKeyId: 'AKID', secretAccessKey: 'SECRET' }],
    ['eu-west-1|AKID|SECRET|SESSION', { region: 'eu-west-1', kind: 'sigv4', accessKeyId: 'AKID', secretAccessKey: 'SECRET', sessionToken: 'SESSION' }],
    ['us-west-2|ABSKapikey', { region: 'us-west-2', kind: 'api-key', apiKey: 'ABSKapikey' }],
  ])('parses the key %s', (key, expected) => {
    expect(parseBedrockKey(key)).toEqual(expected);
  });

  it.each(['just-a-key', 'a|b|c|d|e', 'us-east-1||SECRET'])('refuses the malformed key %s', (key) => {
    expect(() => parseBedrockKey(key)).toThrow(/bedrock key/);
  });

  it.each([
    ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
    ['claude-sonnet-4-20250514', 'anthropic.claude-sonnet-4-20250514-v1:0'],
    ['us.claude-sonnet-4-5-20250929', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ['global.anthropic.claude-haiku-4-5-20251001-v1:0', 'global.anthropic.claude-haiku-4-5-20251001-v1:0'],
    ['anthropic.claude-3-haiku-20240307-v1:0', 'anthropic.claude-3-haiku-20240307-v1:0'],
  ])('maps the model %s', (model, id) => {
    expect(bedrockModelId(model)).toBe(id);
  });

  it('refuses models that are not Anthropic ones', () => {
    expect(() => bedrockModelId('llama3-70b')).toThrow('bedrock provider not found');
  });

  it('shapes the Claude body: version, no model or stream, supported betas from header and body, foreign fields dropped', () => {
    const body = { model: 'claude-x', stream: true, max_tokens: 10, messages: [], system: 's', metadata: { user_id: 'u' }, service_tier: 'auto', anthropic_beta: ['effort-2025-11-24'] };
    const header = ['claude-code-20250219, interleaved-thinking-2025-05-14', 'effort-2025-11-24', 'mcp-servers-2025-12-04'];
    expect(bedrockClaudeBody(body, betaList(header))).toEqual({
      anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [], system: 's', metadata: { user_id: 'u' }, anthropic_beta: ['effort-2025-11-24', 'interleaved-thinking-2025-05-14'],
    });
    expect(bedrockClaudeBody({ max_tokens: 1, messages: [] }, ['claude-code-20250219'])).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 1, messages: [] });
  });

  it('builds a signed invoke-with-response-stream request on the regional host', () => {
    const now = new Date('2026-03-04T05:06:07Z');
    const req = buildBedrockRequest({ key: 'us-east-1|AKID|SECRET', baseUrl: '', model: 'claude-3-5-sonnet-20241022', stream: true, body: { max_tokens: 5, messages: [] }, betas: [], now });
    expect(req.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke-with-response-stream');
    expect(req.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(req.headers.host).toBeUndefined();
    const again = signRequest(
      { method: 'POST', host: 'bedrock-runtime.us-east-1.amazonaws.com', path: new URL(req.url).pathname, headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' }, body: req.body, now },
      { accessKeyId: 'AKID', secretAccessKey: 'SECRET', region: 'us-east-1', service: 'bedrock' },
    );
    expect(req.headers.authorization).toBe(again.authorization);
    expect(req.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/20260304\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/);
  });

  it('uses Bearer auth for an API key and the channel base URL when set', () => {
    const req = buildBedrockRequest({ key: 'us-east-1|ABSK', baseUrl: 'http://127.0.0.1:9/', model: 'claude-sonnet-4-20250514', stream: false, body: { max_tokens: 5, messages: [] }, betas: [], now: new Date() });
    expect(req.url).toBe('http://127.0.0.1:9/model/anthropic.claude-sonnet-4-20250514-v1%3A0/invoke');
    expect(req.headers.authorization).toBe('Bearer ABSK');
    expect(req.headers['x-amz-date']).toBeUndefined();
  });
});

describe('Bedrock model list', () => {
  it('signs ListFoundationModels on the control-plane host', () => {
    const now = new Date('2026-03-04T05:06:07Z');
    const req = bedrockModelsRequest('eu-west-1|AKID|SECRET', '', now);
    expect(req.url).toBe('https://bedrock.eu-west-1.amazonaws.com/foundation-models?byProvider=Anthropic&byOutputModality=TEXT');
    const again = signRequest(
      { method: 'GET', host: 'bedrock.eu-west-1.amazonaws.com', path: '/foundation-models', query: 'byProvider=Anthropic&byOutputModality=TEXT', headers: { accept: 'application/json' }, body: '', now },
      { accessKeyId: 'AKID', secretAccessKey: 'SECRET', region: 'eu-west-1', service: 'bedrock' },
    );
    expect(req.headers.authorization).toBe(again.authorization);
    expect(bedrockModelsRequest('eu-west-1|AKID|SECRET', 'https://bedrock-runtime.eu-west-1.amazonaws.com', now).url).toMatch(/^https:\/\/bedrock\.eu-west-1\.amazonaws\.com\//);
  });

  it('lists Anthropic names, once each, without context-window variants', () => {
    const summaries = ['anthropic.claude-3-5-sonnet-20241022-v2:0', 'anthropic.claude-3-haiku-20240307-v1:0', 'anthropic.claude-3-haiku-20240307-v1:0:200k', 'meta.llama3-70b-instruct-v1:0'].map((modelId) => ({ modelId }));
    expect(anthropicNamesOf(summaries)).toEqual(['claude-3-5-sonnet-20241022', 'claude-3-haiku-20240307']);
    expect(anthropicNamesOf(undefined)).toEqual([]);
  });
});

describe('Bedrock error mapping', () => {
  it.each([
    [403, '{"message":"The security token included in the request is invalid."}', 'authentication_error', false],
    [429, '{"message":"Too many requests, please wait before trying again."}', 'rate_limit_error', false],
    [400, '{"message":"Operation not allowed"}', 'invalid_request_error', true],
    [400, '{"message":"Malformed input request: #: extraneous key [x] is not permitted"}', 'invalid_request_error', false],
    [500, 'upstream exploded', 'upstream_error', false],
  ])('maps %i %s', (status, body, type, retryable) => {
    const error = bedrockError(status, body);
    expect(error).toMatchObject({ status, type, retryable });
    expect(error.message).toContain(body.startsWith('{') ? JSON.parse(body).message : body);
  });
});
