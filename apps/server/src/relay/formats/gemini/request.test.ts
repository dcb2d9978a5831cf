import { describe, expect, it } from 'vitest';
import { jsonFixture } from '../shared/fixture.js';
import { sequentialIds } from '../shared/ids.js';
import type { HubRequest } from '../openai/types.js';
import { geminiRequestToHub } from './request-to-hub.js';
import { hubRequestToGemini } from './request-from-hub.js';
import { parseGeminiRequest } from './schemas.js';
import type { GeminiRequest } from './types.js';

const hub = (p: Partial<HubRequest>): HubRequest => ({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }], ...p });

describe('hubRequestToGemini', () => {
  it('system → systemInstruction, roles → user/model, tool results → functionResponse named by call', () => {
    const { value } = hubRequestToGemini(hub({ messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'weather?' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } }, { type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'SIG' } } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'c1', content: 'plain' },
      { role: 'user', content: 'thanks' },
    ] }));
    expect(value.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(value.contents).toEqual([
      { role: 'user', parts: [{ text: 'weather?' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } }, { fileData: { mimeType: 'image/png', fileUri: 'https://x.test/a.png' } }] },
      { role: 'model', parts: [{ functionCall: { name: 'w', args: { city: 'Paris' } }, thoughtSignature: 'SIG' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'w', response: { temp: 21 } } }, { functionResponse: { name: 'w', response: { content: 'plain' } } }, { text: 'thanks' }] },
    ]);
  });
  it('generationConfig from sampling, stop, JSON schema (cleaned) and reasoning budget', () => {
    const { value, warnings } = hubRequestToGemini(hub({
      temperature: 0.2, top_p: 0.8, top_k: 40, max_tokens: 100, stop: 'END', seed: 7, n: 2,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { $schema: 'x', type: 'object', additionalProperties: false, properties: { additionalProperties: { type: 'string' } } } } },
      reasoning: { max_tokens: 2048 },
    }));
    expect(value.generationConfig).toEqual({
      temperature: 0.2, topP: 0.8, topK: 40, maxOutputTokens: 100, stopSequences: ['END'], seed: 7, candidateCount: 2,
      responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { additionalProperties: { type: 'string' } } },
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(warnings).toEqual(['response_format.json_schema: removed $schema, additionalProperties (not accepted by Gemini)']);
  });
  it.each([
    ['gemini-2.5-pro', 'low', { thinkingBudget: 1024, includeThoughts: true }],
    ['gemini-2.5-flash', 'none', { thinkingBudget: 0, includeThoughts: false }],
    ['gemini-3-pro-preview', 'high', { thinkingLevel: 'HIGH', includeThoughts: true }],
    ['gemini-3-flash', 'minimal', { thinkingLevel: 'MINIMAL', includeThoughts: true }],
  ])('%s reasoning_effort %s', (model, effort, expected) => {
    expect(hubRequestToGemini(hub({ model, reasoning_effort: effort as HubRequest['reasoning_effort'] })).value.generationConfig?.thinkingConfig).toEqual(expected);
  });
  it('tools lose $schema/additionalProperties; empty parameters are omitted; tool_choice maps', () => {
    const { value, warnings } = hubRequestToGemini(hub({
      tools: [
        { type: 'function', function: { name: 'a', description: 'A', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { q: { type: 'object', additionalProperties: { type: 'string' } } } } } },
        { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'a' } },
    }));
    expect(value.tools).toEqual([{ functionDeclarations: [
      { name: 'a', description: 'A', parameters: { type: 'object', properties: { q: { type: 'object' } } } },
      { name: 'b' },
    ] }]);
    expect(value.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a'] } });
    expect(warnings).toEqual(['tools.0.function.parameters: removed $schema, additionalProperties (not accepted by Gemini)']);
  });
  it.each([['auto', 'AUTO'], ['none', 'NONE'], ['required', 'ANY']])('tool_choice %s → %s', (tc, mode) => {
    expect(hubRequestToGemini(hub({ tool_choice: tc as HubRequest['tool_choice'] })).value.toolConfig).toEqual({ functionCallingConfig: { mode } });
  });
  it('strips foreign reasoning, adds the skip signature on Gemini 3, and passes safety settings', () => {
    const msgs: HubRequest['messages'] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning_content: 'from deepseek', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ];
    const g3 = hubRequestToGemini(hub({ model: 'gemini-3-pro-preview', messages: msgs }), { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }] });
    expect(g3.value.contents[1].parts).toEqual([{ text: 'a' }, { functionCall: { name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }]);
    expect(g3.value.safetySettings).toHaveLength(1);
    expect(g3.warnings).toEqual(['messages.1: reasoning_content from another model stripped']);
    expect(hubRequestToGemini(hub({ messages: msgs })).value.contents[1].parts[1]).toEqual({ functionCall: { name: 'f', args: {} } });
  });
  it('reports parameters Gemini has no place for', () => {
    expect(hubRequestToGemini(hub({ user: 'u', logit_bias: { 1: 2 }, parallel_tool_calls: false })).warnings).toEqual([
      'request: dropped unsupported field "user"', 'request: dropped unsupported field "logit_bias"', 'parallel_tool_calls=false has no Gemini equivalent',
    ]);
  });
});

describe('geminiRequestToHub', () => {
  const cli = parseGeminiRequest(jsonFixture<GeminiRequest>('gemini', 'request-gemini-cli.json'));
  const { value, warnings } = geminiRequestToHub(cli, { model: 'gemini-2.5-pro', stream: true, ids: sequentialIds() });
  it('messages with images, calls with signatures, and responses matched in order', () => {
    expect(value.messages).toEqual([
      { role: 'system', content: 'You are an interactive CLI agent.' },
      { role: 'user', content: [{ type: 'text', text: "What's in this picture, and what's the weather in Paris?" }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      { role: 'assistant', content: null, reasoning_content: 'Thinking about tools', tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'SIG_A' } } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } },
      ] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"temp":18}' },
    ]);
  });
  it('config, tools and reported drops', () => {
    expect(value).toMatchObject({
      model: 'gemini-2.5-pro', stream: true, temperature: 0, top_p: 1, max_tokens: 4096, stop: ['END'],
      reasoning: { max_tokens: 8192 }, reasoning_effort: 'medium', tool_choice: 'auto',
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
    });
    expect(warnings).toEqual(['tools: built-in tool "googleSearch" dropped', 'safetySettings dropped']);
  });
  it('round trip back to Gemini keeps contents and signatures', () => {
    const back = hubRequestToGemini(value).value;
    expect(back.contents[1]).toEqual({ role: 'model', parts: [
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG_A' },
      { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
    ] });
    expect(back.contents[2].parts.map((p) => p.functionResponse)).toEqual(cli.contents[2].parts.map((p) => p.functionResponse));
    expect(back.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 8192, includeThoughts: true });
  });
  it.each([
    [{ mode: 'ANY', allowedFunctionNames: ['f'] }, { type: 'function', function: { name: 'f' } }],
    [{ mode: 'ANY' }, 'required'],
    [{ mode: 'NONE' }, 'none'],
  ])('toolConfig %j', (fc, expected) => {
    expect(geminiRequestToHub({ ...cli, toolConfig: { functionCallingConfig: fc } }, { model: 'g' }).value.tool_choice).toEqual(expected);
  });
  it('JSON response mime and thinking level', () => {
    const r = geminiRequestToHub({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' }, thinkingConfig: { thinkingLevel: 'LOW' } } }, { model: 'g' });
    expect(r.value.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'OBJECT' } } });
    expect(r.value.reasoning_effort).toBe('low');
  });
  it('rejects a request without contents', () => {
    expect(() => parseGeminiRequest({ contents: [] })).toThrow(/contents/);
  });
});
