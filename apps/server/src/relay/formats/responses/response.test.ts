import { describe, expect, it } from 'vitest';
import { sequentialIds } from '../shared/ids.js';
import type { HubResponse } from '../openai/types.js';
import { hubResponseToResponses } from './response-from-hub.js';

const res = (p: Partial<HubResponse['choices'][0]>): HubResponse => ({
  id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'claude-sonnet-4-5',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello' }, ...p }],
  usage: { prompt_tokens: 100, completion_tokens: 30, total_tokens: 130, prompt_tokens_details: { cached_tokens: 60 }, completion_tokens_details: { reasoning_tokens: 10 } },
});

describe('hubResponseToResponses', () => {
  it('reasoning, message and function calls become output items with usage', () => {
    const { value } = hubResponseToResponses(res({
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: 'Running.', reasoning_content: 'plan', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
    }), { ids: sequentialIds(), now: 9, request: { model: 'x', input: 'hi', store: false } });
    expect(value).toMatchObject({ id: 'resp_4', object: 'response', created_at: 9, status: 'completed', model: 'claude-sonnet-4-5', error: null, incomplete_details: null, store: false, tools: [] });
    expect(value.output).toEqual([
      { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }] },
      { id: 'msg_2', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Running.', annotations: [] }] },
      { id: 'fc_3', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
    ]);
    expect(value.usage).toEqual({ input_tokens: 100, input_tokens_details: { cached_tokens: 60 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 }, total_tokens: 130 });
  });
  it.each([
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
    ['stop', 'completed', null],
  ] as const)('finish %s → %s', (finish, status, details) => {
    const { value } = hubResponseToResponses(res({ finish_reason: finish }));
    expect(value.status).toBe(status);
    expect(value.incomplete_details).toEqual(details);
  });
  it('reports extra choices', () => {
    const r = res({});
    r.choices.push({ ...r.choices[0], index: 1 });
    expect(hubResponseToResponses(r).warnings).toEqual(['choices: 1 extra choice(s) dropped']);
  });
});
