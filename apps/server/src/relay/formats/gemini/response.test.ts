import { describe, expect, it } from 'vitest';
import { jsonFixture } from '../shared/fixture.js';
import { sequentialIds } from '../shared/ids.js';
import { emptyUsage, type Usage } from '../openai/usage.js';
import { finishReasonToGemini, finishReasonToHub } from './finish-reason.js';
import { geminiResponseToHub, hubResponseToGemini } from './response.js';
import type { GeminiResponse } from './types.js';
import { usageFromGemini, usageToGemini } from './usage.js';

const fixture = jsonFixture<GeminiResponse>('gemini', 'response-thinking-tool.json');
const u = (p: Partial<Usage>): Usage => ({ ...emptyUsage(), ...p });

describe('finish reasons', () => {
  it.each([
    ['STOP', false, 'stop'], ['STOP', true, 'tool_calls'], ['MAX_TOKENS', false, 'length'], ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'], ['PROHIBITED_CONTENT', false, 'content_filter'], ['MALFORMED_FUNCTION_CALL', false, 'stop'], [undefined, false, null],
  ])('%s (tools %s) → %s', (r, t, o) => expect(finishReasonToHub(r, t)).toBe(o));
  it.each([['stop', 'STOP'], ['tool_calls', 'STOP'], ['length', 'MAX_TOKENS'], ['content_filter', 'SAFETY']])('%s → %s', (o, g) => expect(finishReasonToGemini(o)).toBe(g));
});

describe('usageFromGemini', () => {
  it.each([
    ['plain', { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, u({ inputUncached: 10, output: 5 })],
    ['cached ⊂ prompt, thoughts separate', { promptTokenCount: 1000, cachedContentTokenCount: 800, candidatesTokenCount: 50, thoughtsTokenCount: 200 }, u({ inputUncached: 200, cacheRead: 800, output: 50, reasoning: 200 })],
    ['tool-use prompt counts as input', { promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 1 }, u({ inputUncached: 15, output: 1 })],
    [
      'modalities',
      { promptTokenCount: 600, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 100 }, { modality: 'IMAGE', tokenCount: 258 }, { modality: 'AUDIO', tokenCount: 242 }], candidatesTokenCount: 1300, candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }] },
      u({ inputUncached: 100, imageIn: 258, audioIn: 242, output: 10, imageOut: 1290 }),
    ],
  ])('%s', (_n, raw, expected) => expect(usageFromGemini(raw)).toEqual(expected));
  it('round-trips through usageMetadata', () => {
    const x = u({ inputUncached: 5, cacheRead: 6, output: 7, reasoning: 8, imageIn: 9, audioOut: 3 });
    expect(usageFromGemini(usageToGemini(x))).toEqual(x);
  });
});

describe('geminiResponseToHub', () => {
  const { value, usage, warnings } = geminiResponseToHub(fixture, { model: 'gemini-2.5-pro', ids: sequentialIds(), now: 5 });
  it('thought → reasoning_content, functionCall → tool call with its signature', () => {
    expect(value).toMatchObject({ id: 'chatcmpl-Hn8haKq2Ds6w1e8PrdqcuQg', created: 5, model: 'gemini-2.5-pro' });
    expect(value.choices).toEqual([{ index: 0, finish_reason: 'tool_calls', message: {
      role: 'assistant', content: 'Checking Paris now.', reasoning_content: 'I need the current weather.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' }, extra_content: { google: { thought_signature: 'EvwDCvkDAdHtim9sig' } } }],
    } }]);
    expect(warnings).toEqual([]);
  });
  it('golden usage (non-stream): cached and image shares disjoint', () => {
    expect(usage).toEqual(u({ inputUncached: 42, cacheRead: 600, imageIn: 258, output: 25, reasoning: 80 }));
    expect(value.usage).toMatchObject({ prompt_tokens: 900, completion_tokens: 105, prompt_tokens_details: { cached_tokens: 600 }, completion_tokens_details: { reasoning_tokens: 80 } });
  });
  it('no candidates: a filtered empty choice and a warning, not a crash', () => {
    const r = geminiResponseToHub({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 8 } }, { model: 'g' });
    expect(r.value.choices).toEqual([{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }]);
    expect(r.warnings).toEqual(['no candidates (prompt blocked: SAFETY)']);
  });
  it('inline images and code execution parts', () => {
    const r = geminiResponseToHub({ candidates: [{ content: { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }, { inlineData: { mimeType: 'image/png', data: 'AAA' } }] }, finishReason: 'STOP' }] }, { model: 'g', ids: sequentialIds() });
    expect(r.value.choices[0].message.content).toBe('\n```python\nprint(1)\n```\n\n```\n1\n```\n');
    expect(r.value.choices[0].message.images).toEqual([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } }]);
  });
  it('round trip back to Gemini keeps parts, signature and usage', () => {
    const back = hubResponseToGemini(value, { usage }).value;
    expect(back.candidates?.[0].content?.parts).toEqual([
      { text: 'I need the current weather.', thought: true },
      { text: 'Checking Paris now.' },
      { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris', unit: 'c' } }, thoughtSignature: 'EvwDCvkDAdHtim9sig' },
    ]);
    expect(back.candidates?.[0].finishReason).toBe('STOP');
    expect(usageFromGemini(back.usageMetadata)).toEqual(usage);
  });
});
