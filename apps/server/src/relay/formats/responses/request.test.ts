import { describe, expect, it } from 'vitest';
import { jsonFixture } from '../shared/fixture.js';
import { FormatError } from '../shared/errors.js';
import { responsesRequestToHub } from './request-to-hub.js';
import { parseResponsesRequest } from './schemas.js';
import type { ResponsesRequest } from './types.js';

const codex = parseResponsesRequest(jsonFixture<ResponsesRequest>('responses', 'request-codex.json'));

describe('responsesRequestToHub', () => {
  const { value, warnings } = responsesRequestToHub(codex);
  it('instructions, messages, reasoning, function calls and outputs become chat messages', () => {
    expect(value.messages).toEqual([
      { role: 'system', content: "You are Codex, a coding agent running in the user's terminal." },
      { role: 'developer', content: '<permissions>workspace-write</permissions>' },
      { role: 'user', content: [{ type: 'text', text: 'What does this screenshot show? Then list files.' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' } }] },
      { role: 'assistant', content: 'Listing files now.', reasoning_content: '**Planning** I should list files.', tool_calls: [{ id: 'call_ls1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
      { role: 'tool', tool_call_id: 'call_ls1', content: 'README.md\nsrc' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_rd1', type: 'function', function: { name: 'shell', arguments: '{"command":["cat","README.md"]}' } }] },
      { role: 'tool', tool_call_id: 'call_rd1', content: '# Demo' },
    ]);
  });
  it('parameters: tools, tool_choice, effort, max_output_tokens, text.format, cache key', () => {
    expect(value).toMatchObject({
      model: 'gpt-5-codex', stream: true, stream_options: { include_usage: true }, max_tokens: 4000, reasoning_effort: 'medium',
      tool_choice: 'auto', parallel_tool_calls: false, prompt_cache_key: '019a-session-77',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { files: { type: 'array' } } }, strict: true } },
    });
    expect(value.tools).toEqual([{ type: 'function', function: { name: 'shell', description: 'Runs a shell command', strict: false, parameters: codex.tools![0].parameters } }]);
  });
  it('reports what it could not carry', () => {
    expect(warnings).toEqual(['input.2: encrypted reasoning dropped (only OpenAI can read it)', 'tools: web_search tool dropped (only function tools convert)']);
  });
  it.each([
    ['string input', { input: 'hello' }, [{ role: 'user', content: 'hello' }]],
    ['role-only message items', { input: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }, [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }]],
    ['output as parts', { input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'ok' }] }] }, [{ role: 'tool', tool_call_id: 'c', content: 'ok' }]],
  ])('%s', (_n, p, messages) => {
    expect(responsesRequestToHub({ model: 'm', ...p } as ResponsesRequest).value.messages).toEqual(messages);
  });
  it.each([
    [{ type: 'function', name: 'f' }, { type: 'function', function: { name: 'f' } }],
    ['required', 'required'],
    ['none', 'none'],
  ])('tool_choice %j', (tc, expected) => {
    expect(responsesRequestToHub({ model: 'm', input: 'x', tool_choice: tc as ResponsesRequest['tool_choice'] }).value.tool_choice).toEqual(expected);
  });
  it('json_object format', () => {
    expect(responsesRequestToHub({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).value.response_format).toEqual({ type: 'json_object' });
  });
  it('previous_response_id: refused with a clear 400 unless the gateway restores the history', () => {
    expect(() => responsesRequestToHub({ model: 'm', input: 'x', previous_response_id: 'resp_1' })).toThrow(FormatError);
    const r = responsesRequestToHub({ model: 'm', input: 'again', previous_response_id: 'resp_1' }, { previousMessages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }] });
    expect(r.value.messages).toEqual([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'again' }]);
  });
  it('rejects a request without a model', () => {
    expect(() => parseResponsesRequest({ input: 'x' })).toThrow(/model/);
  });
});
