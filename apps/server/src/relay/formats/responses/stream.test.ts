import { describe, expect, it } from 'vitest';
import { sseEvents } from '../shared/fixture.js';
import { sequentialIds } from '../shared/ids.js';
import type { HubChunk } from '../openai/types.js';
import { createHubToResponsesStream } from './stream-from-hub.js';
import type { ResponsesEvent } from './types.js';

const chunks = sseEvents<HubChunk>('openai', 'chat-stream-reasoning-tools.sse');

function run(input: HubChunk[]) {
  const s = createHubToResponsesStream({ model: 'deepseek-reasoner', ids: sequentialIds(), now: 3, request: { model: 'deepseek-reasoner', input: 'x' } });
  const events = input.flatMap((c) => s.push(c));
  events.push(...s.finish());
  return { s, events };
}

describe('createHubToResponsesStream', () => {
  const { events } = run(chunks);
  it('emits the complete event sequence', () => {
    expect(events.map((e) => e.type)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
  });
  it('numbers events 0..n and keeps item ids stable from added to done', () => {
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => (e.item as { id: string }).id);
    const doneIds = events.filter((e) => e.type === 'response.output_item.done').map((e) => (e.item as { id: string }).id);
    expect(added).toEqual(doneIds);
    expect(new Set(added).size).toBe(4);
    for (const e of events.filter((x) => 'item_id' in x)) expect(added).toContain(e.item_id);
  });
  it('done events carry the full text and arguments; completed carries output and usage', () => {
    const get = (t: string) => events.filter((e) => e.type === t);
    expect(get('response.reasoning_summary_text.done')[0].text).toBe('Need the file list first.');
    expect(get('response.output_text.done')[0]).toMatchObject({ text: "I'll run ls.", output_index: 1, content_index: 0 });
    expect(get('response.function_call_arguments.done').map((e) => e.arguments)).toEqual(['{"command":["ls"]}', '{"path":"README.md"}']);
    const completed = events[events.length - 1].response as Record<string, unknown>;
    expect(completed).toMatchObject({ id: 'resp_1', status: 'completed', usage: { input_tokens: 1500, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 120, output_tokens_details: { reasoning_tokens: 40 }, total_tokens: 1620 } });
    expect(completed.output).toEqual([
      { id: 'rs_2', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need the file list first.' }] },
      { id: 'msg_3', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: "I'll run ls.", annotations: [] }] },
      { id: 'fc_4', type: 'function_call', status: 'completed', call_id: 'call_0_5b3e', name: 'shell', arguments: '{"command":["ls"]}' },
      { id: 'fc_5', type: 'function_call', status: 'completed', call_id: 'call_1_9a1f', name: 'read_file', arguments: '{"path":"README.md"}' },
    ]);
  });
  it('the created event shows an empty in-progress response', () => {
    expect(events[0].response).toMatchObject({ id: 'resp_1', status: 'in_progress', output: [], usage: null });
  });
  it('tolerates a usage-only chunk with empty choices anywhere', () => {
    const usageOnly = chunks[chunks.length - 1];
    const { events: ev } = run([usageOnly, ...chunks.slice(0, 5)]);
    expect(ev[ev.length - 1].type).toBe('response.completed');
  });
  it('length → response.incomplete with the reason', () => {
    const cut: HubChunk = { ...chunks[3], choices: [{ index: 0, delta: { content: 'abc' }, finish_reason: 'length' }] };
    const { events: ev } = run([cut]);
    expect(ev[ev.length - 1]).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });
  it('error() → response.failed after what was sent, then nothing', () => {
    const s = createHubToResponsesStream({ model: 'm', ids: sequentialIds() });
    const ev: ResponsesEvent[] = s.push(chunks[3]);
    ev.push(...s.error({ message: 'upstream reset', code: 'server_error' }));
    expect(ev[ev.length - 1]).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'upstream reset' } } });
    expect(ev.map((e) => e.sequence_number)).toEqual(ev.map((_, i) => i));
    expect(s.finish()).toEqual([]);
    expect(s.push(chunks[4])).toEqual([]);
  });
});
