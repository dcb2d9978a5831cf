import { describe, expect, it } from 'vitest';
import { createOpenAIStreamMapper } from './stream.js';

const chunk = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }], usage: null, ...extra });
const usageChunk = JSON.stringify({ id: 'c1', choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } });

describe('OpenAI stream mapper', () => {
  it('passes frames through byte for byte and reads usage from the usage chunk', () => {
    const m = createOpenAIStreamMapper({ forwardUsage: true });
    const frames = [chunk('Hel'), chunk('lo'), usageChunk].flatMap((d) => m.onEvent(d));
    expect(frames).toEqual([chunk('Hel'), chunk('lo'), usageChunk]);
    expect(m.onEvent('[DONE]')).toEqual([]);
    expect(m.usage()).toMatchObject({ promptTokens: 11, completionTokens: 7 });
    expect(m.finish()).toEqual(['[DONE]']);
  });

  it('holds back a usage-only chunk the caller did not ask for, but still bills it', () => {
    const m = createOpenAIStreamMapper({ forwardUsage: false });
    expect(m.onEvent(chunk('Hi'))).toEqual([chunk('Hi')]);
    expect(m.onEvent(usageChunk)).toEqual([]);
    expect(m.usage()).toMatchObject({ promptTokens: 11, completionTokens: 7 });
  });

  it('collects content, reasoning and tool arguments of every chunk when upstream reports no usage', () => {
    const m = createOpenAIStreamMapper({ forwardUsage: true });
    m.onEvent(chunk('A'));
    m.onEvent(JSON.stringify({ choices: [{ delta: { reasoning_content: 'R' } }] }));
    m.onEvent(JSON.stringify({ choices: [{ delta: { tool_calls: [{ function: { arguments: '{"x":1}' } }] } }] }));
    m.onEvent('not json');
    m.onEvent(chunk('B', { usage: null }));
    expect(m.usage()).toBeNull();
    expect(m.text()).toBe('AR{"x":1}B');
  });

  it('keeps long streams bounded and their text whole', () => {
    const m = createOpenAIStreamMapper({ forwardUsage: true });
    const piece = 'x'.repeat(1000);
    for (let i = 0; i < 3000; i++) m.onEvent(chunk(piece));
    expect(m.text().length).toBe(3000 * 1000);
  });

  it('recognises a Responses API stream: usage on response.completed, text from deltas, no [DONE]', () => {
    const m = createOpenAIStreamMapper({ forwardUsage: true });
    m.onEvent(JSON.stringify({ type: 'response.created', response: { id: 'r1' } }));
    m.onEvent(JSON.stringify({ type: 'response.output_text.delta', delta: 'Yo' }));
    m.onEvent(JSON.stringify({ type: 'response.completed', response: { usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } } }));
    expect(m.text()).toBe('Yo');
    expect(m.usage()).toMatchObject({ promptTokens: 5, completionTokens: 2 });
    expect(m.finish()).toEqual([]);
  });
});
