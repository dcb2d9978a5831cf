import { describe, expect, it } from 'vitest';
import { jsonFixture } from '../shared/fixture.js';
import { sequentialIds } from '../shared/ids.js';
import type { HubResponse } from '../openai/types.js';
import { emptyUsage } from '../openai/usage.js';
import { anthropicResponseToHub, hubResponseToAnthropic } from './response.js';
import { finishReasonToAnthropic, stopReasonToHub } from './stop-reason.js';
import type { AnthropicResponse } from './types.js';

const fixture = jsonFixture<AnthropicResponse>('anthropic', 'response-thinking-tool.json');

describe('stop reasons', () => {
  it.each([
    ['end_turn', 'stop'], ['stop_sequence', 'stop'], ['max_tokens', 'length'], ['tool_use', 'tool_calls'], ['refusal', 'content_filter'], ['pause_turn', 'stop'], ['model_context_window_exceeded', 'length'],
  ])('%s → %s', (a, o) => expect(stopReasonToHub(a)).toBe(o));
  it.each([['stop', 'end_turn'], ['length', 'max_tokens'], ['tool_calls', 'tool_use'], ['content_filter', 'refusal'], [null, 'end_turn']])('%s → %s', (o, a) => expect(finishReasonToAnthropic(o)).toBe(a));
});

describe('anthropicResponseToHub', () => {
  const { value, warnings } = anthropicResponseToHub(fixture, { now: 1700000000, model: 'claude-shown' });
  it('builds one choice with text, reasoning, signed blocks and tool calls', () => {
    expect(value).toMatchObject({ id: 'msg_01Aq9w938a90dw8q', object: 'chat.completion', created: 1700000000, model: 'claude-shown' });
    expect(value.choices).toEqual([{
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: "I'll check the current weather in Paris.",
        reasoning_content: 'I should look up the weather.',
        thinking_blocks: [fixture.content[0], fixture.content[1]],
        tool_calls: [{ id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, FR","unit":"celsius"}' } }],
      },
    }]);
    expect(warnings).toEqual([]);
  });
  it('reports blocks it cannot carry', () => {
    const r = anthropicResponseToHub({ ...fixture, content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] });
    expect(r.warnings).toEqual(['content: dropped block of type "server_tool_use"']);
    expect(r.value.choices[0].message.content).toBeNull();
  });
  it('round trip back to Anthropic is lossless for content, stop reason and usage', () => {
    const { usage } = anthropicResponseToHub(fixture);
    const back = hubResponseToAnthropic(value, { usage }).value;
    expect(back.content).toEqual(fixture.content);
    expect(back.stop_reason).toBe('tool_use');
    expect(back.id).toBe(fixture.id);
    expect(back.usage).toMatchObject({ input_tokens: 2095, cache_read_input_tokens: 11500, cache_creation_input_tokens: 0, output_tokens: 503 });
  });
});

describe('hubResponseToAnthropic', () => {
  const res: HubResponse = {
    id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'deepseek-reasoner',
    choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'partial', reasoning_content: 'thinking…', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] } }],
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, prompt_tokens_details: { cached_tokens: 60 }, completion_tokens_details: { reasoning_tokens: 20 } },
  };
  it('maps an OpenAI answer with foreign reasoning and broken arguments', () => {
    const { value, warnings } = hubResponseToAnthropic(res, { ids: sequentialIds() });
    expect(value).toEqual({
      id: 'msg_1', type: 'message', role: 'assistant', model: 'deepseek-reasoner', stop_reason: 'max_tokens', stop_sequence: null,
      content: [{ type: 'thinking', thinking: 'thinking…', signature: '' }, { type: 'text', text: 'partial' }, { type: 'tool_use', id: 'call_1', name: 'f', input: {} }],
      usage: { input_tokens: 40, cache_read_input_tokens: 60, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 50 },
    });
    expect(warnings).toEqual(['tool_calls.0: arguments were not a JSON object and were replaced by {}']);
  });
  it('reports extra choices and empty answers stay valid', () => {
    const two = { ...res, choices: [res.choices[0], { ...res.choices[0], index: 1 }] };
    expect(hubResponseToAnthropic(two).warnings).toContain('choices: 1 extra choice(s) dropped');
    const empty = hubResponseToAnthropic({ ...res, usage: undefined, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '' } }] }).value;
    expect(empty.content).toEqual([]);
    expect(empty.usage.output_tokens).toBe(0);
    expect(emptyUsage().output).toBe(0);
  });
});
