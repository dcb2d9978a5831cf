import { describe, expect, it } from 'vitest';
import { FormatError } from '../shared/errors.js';
import { sseEvents } from '../shared/fixture.js';
import { parseHubChunk, parseHubRequest, parseHubResponse } from './schemas.js';
import type { HubChunk } from './types.js';
import { usageFromOpenAI } from './usage.js';

describe('lenient OpenAI wire schemas', () => {
  it('keeps unknown fields on requests and messages', () => {
    const req = parseHubRequest({ model: 'm', messages: [{ role: 'user', content: 'x', vendor_field: 1 }], vendor_top: { a: 1 }, max_tokens: null });
    expect(req.vendor_top).toEqual({ a: 1 });
    expect(req.messages[0].vendor_field).toBe(1);
  });
  it.each([
    [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
    [{ model: 'm', messages: [] }, 'messages'],
    [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
    [{ model: 'm', messages: [{ role: 'user', content: 'x' }], stop: 5 }, 'stop'],
  ])('rejects %j naming %s', (body, field) => {
    try {
      parseHubRequest(body);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).field).toBe(field);
    }
  });
  it('accepts unknown content part types and a response without usage', () => {
    expect(parseHubRequest({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }] }).messages).toHaveLength(1);
    expect(parseHubResponse({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] }).usage).toBeUndefined();
  });
  it('golden usage (OpenAI stream): the usage-only chunk parses and normalises', () => {
    const chunks = sseEvents<unknown>('openai', 'chat-stream-reasoning-tools.sse').map(parseHubChunk) as HubChunk[];
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(usageFromOpenAI(last.usage)).toMatchObject({ inputUncached: 476, cacheRead: 1024, output: 80, reasoning: 40 });
  });
});
