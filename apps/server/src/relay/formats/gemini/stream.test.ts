import { describe, expect, it } from 'vitest';
import { sseEvents } from '../shared/fixture.js';
import { sequentialIds } from '../shared/ids.js';
import type { HubChunk, HubDelta } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI } from '../openai/usage.js';
import { createGeminiToHubStream } from './stream-to-hub.js';
import { createHubToGeminiStream } from './stream-from-hub.js';
import type { GeminiResponse } from './types.js';
import { usageFromGemini } from './usage.js';

const chunks = sseEvents<GeminiResponse>('gemini', 'stream-thinking-tool.sse');

describe('createGeminiToHubStream', () => {
  const s = createGeminiToHubStream({ model: 'gemini-2.5-flash', includeUsage: true, ids: sequentialIds(), now: 1 });
  const out = chunks.flatMap((c) => s.push(c));
  out.push(...s.finish());
  it('maps thoughts, text and parallel calls with one stable id', () => {
    expect(new Set(out.map((c) => c.id))).toEqual(new Set(['chatcmpl-kD0haJ2yLq-x1e8P0pSZ8Ac']));
    expect(out.slice(0, 3).map((c) => c.choices[0].delta)).toEqual<HubDelta[]>([
      { role: 'assistant', reasoning_content: '**Checking the weather**\n\nThe user asks about Paris.' },
      { content: 'Let me look that up.' },
      { tool_calls: [
        { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'CiQBVKhc7oDsbZ2uQz2Fm9q1' } } },
        { index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
      ] },
    ]);
    expect(out[2].choices[0].finish_reason).toBe('tool_calls');
  });
  it('golden usage (stream): last usageMetadata wins, cached ⊂ prompt, thoughts separate', () => {
    const expected = { ...emptyUsage(), inputUncached: 200, cacheRead: 1000, output: 40, reasoning: 30 };
    expect(s.usage()).toEqual(expected);
    expect(out[3].choices).toEqual([]);
    expect(usageFromOpenAI(out[3].usage)).toEqual(expected);
  });
});

const chunk = (delta: HubDelta, finish: HubChunk['choices'][0]['finish_reason'] = null): HubChunk => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('createHubToGeminiStream', () => {
  it('streams text at once and whole function calls with finishReason and usage at the end', () => {
    const s = createHubToGeminiStream({ model: 'gpt-4o', responseId: 'r1' });
    const out = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'hmm' }),
      chunk({ content: 'Hi' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14, completion_tokens_details: { reasoning_tokens: 1 } } },
    ].flatMap((c) => s.push(c));
    out.push(...s.finish());
    expect(out.map((r) => r.candidates?.[0].content?.parts)).toEqual([
      [{ text: 'hmm', thought: true }],
      [{ text: 'Hi' }],
      [{ functionCall: { id: 'call_a', name: 'f', args: { a: 1 } } }],
    ]);
    expect(out[2].candidates?.[0].finishReason).toBe('STOP');
    expect(out[2].usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 3, thoughtsTokenCount: 1, totalTokenCount: 14 });
    expect(out.every((r) => r.responseId === 'r1' && r.modelVersion === 'gpt-4o')).toBe(true);
  });
  it('round trip Gemini → hub → Gemini keeps the calls, signature and usage', () => {
    const a = createGeminiToHubStream({ model: 'g', includeUsage: true, ids: sequentialIds() });
    const b = createHubToGeminiStream({ model: 'g' });
    const out = chunks.flatMap((c) => a.push(c)).flatMap((c) => b.push(c));
    a.finish().forEach((c) => b.push(c));
    out.push(...b.finish());
    const last = out[out.length - 1];
    expect(last.candidates?.[0].content?.parts).toEqual([
      { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQBVKhc7oDsbZ2uQz2Fm9q1' },
      { functionCall: { id: 'call_2', name: 'get_time', args: { tz: 'Europe/Paris' } } },
    ]);
    expect(usageFromGemini(last.usageMetadata)).toEqual(a.usage());
  });
  it('error() gives Google\'s error body and ends the stream', () => {
    const s = createHubToGeminiStream({ model: 'g' });
    s.push(chunk({ content: 'x' }));
    expect(s.error({ message: 'boom', code: 503, status: 'UNAVAILABLE' })).toEqual([{ error: { code: 503, message: 'boom', status: 'UNAVAILABLE' } }]);
    expect(s.finish()).toEqual([]);
  });
});
