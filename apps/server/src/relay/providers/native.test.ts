import { describe, expect, it } from 'vitest';
import { adapterFor } from './index.js';
import type { ChannelTarget, Frame, StreamMapper } from './types.js';
import { ndjsonDecoder } from './ollama/response.js';

const channel = (type: number, fields: Partial<ChannelTarget> = {}): ChannelTarget => ({ id: 1, type, key: 'k-1', baseUrl: 'https://up.example', other: '', headers: {}, ...fields });
const dataOf = (f: Frame) => (typeof f === 'string' ? f : f.data);
/** Runs events through a mapper; answers the parsed chunks (and the raw [DONE]). */
function run(mapper: StreamMapper, events: Array<[unknown, string?]>) {
  const frames = events.flatMap(([e, name]) => mapper.onEvent(typeof e === 'string' ? e : JSON.stringify(e), name));
  const all = [...frames, ...mapper.finish()].map(dataOf);
  return all.map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
}
const chat = { model: 'm1', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,QUJD' } }] }], max_tokens: 9, temperature: 0.1, stop: 'END' };

describe('Ollama adapter', () => {
  const ollama = adapterFor(39)!;

  it('builds /api/chat with options, inline images and an explicit stream flag', () => {
    const req = ollama.buildRequest('chat/completions', chat, channel(39, { headers: { 'CF-Access-Client-Id': 'cf' } }), { stream: false, raw: false, model: 'm1' });
    expect(req.url).toBe('https://up.example/api/chat');
    expect(req.headers).toMatchObject({ authorization: 'Bearer k-1', 'CF-Access-Client-Id': 'cf' });
    expect(req.body).toEqual({
      model: 'm1',
      stream: false,
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi', images: ['QUJD'] }],
      options: { temperature: 0.1, num_predict: 9, stop: ['END'] },
    });
  });

  it('converts answers, tool calls and embeddings (base64 when the SDK asks)', () => {
    const answer = ollama.transformResponse!('chat/completions', {
      model: 'm1', created_at: '2024-01-01T00:00:00Z', done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 3,
      message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'add', arguments: { a: 1 } } }] },
    }, chat) as any;
    expect(answer).toMatchObject({ object: 'chat.completion', created: 1704067200, choices: [{ finish_reason: 'tool_calls', message: { tool_calls: [{ type: 'function', function: { name: 'add', arguments: '{"a":1}' } }] } }] });
    expect(ollama.parseUsage('chat/completions', answer)).toMatchObject({ promptTokens: 12, completionTokens: 3 });
    const emb = ollama.transformResponse!('embeddings', { model: 'e', embeddings: [[1, 2]], prompt_eval_count: 4 }, { model: 'e', encoding_format: 'base64' }) as any;
    const bytes = Buffer.from(emb.data[0].embedding, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))).toEqual([1, 2]);
    expect(emb.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
  });

  it('streams NDJSON lines into OpenAI chunks with usage from the done line', () => {
    const frames: string[] = [];
    const decoder = ndjsonDecoder();
    decoder.push(Buffer.from('{"model":"m1","message":{"content":"He"},"done":false}\n{"model":"m1","mess'), (e) => frames.push(e.data));
    decoder.push(Buffer.from('age":{"content":"llo"},"done":false}\n{"model":"m1","message":{"content":""},"done":true,"done_reason":"length","prompt_eval_count":5,"eval_count":2}\n'), (e) => frames.push(e.data));
    expect(frames).toHaveLength(3);
    const mapper = ollama.createStreamMapper({ forwardUsage: true });
    const out = run(mapper, frames.map((f) => [f]));
    expect(out[0].choices[0].delta).toEqual({ role: 'assistant', content: 'He' });
    expect(out[2].choices[0].finish_reason).toBe('length');
    expect(out[3].usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
    expect(out.at(-1)).toBe('[DONE]');
    expect(mapper.ended!()).toBe(true);
    expect(mapper.text()).toBe('Hello');
    expect(() => ndjsonDecoder().push(Buffer.from('{"error":"model not found"}\n'), () => {})).toThrow('Ollama: model not found');
  });

  it('lists models from /api/tags and maps {"error"} bodies', () => {
    expect(ollama.modelsRequest!(channel(39)).url).toBe('https://up.example/api/tags');
    expect(ollama.parseModels!({ models: [{ name: 'llama3:8b' }, { name: 'qwen3' }] })).toEqual(['llama3:8b', 'qwen3']);
    expect(ollama.mapError(404, '{"error":"model \\"x\\" not found"}').message).toBe('Provider API error: model "x" not found');
  });
});

describe('Cohere adapter', () => {
  const cohere = adapterFor(36)!;

  it('builds /v2/chat with Cohere parameter names and tool calls', () => {
    const body = { ...chat, top_p: 0.5, tools: [{ type: 'function', function: { name: 'add', parameters: { type: 'object' } } }], tool_choice: 'required' };
    const req = cohere.buildRequest('chat/completions', body, channel(36), { stream: true, raw: false, model: 'm1' });
    expect(req.url).toBe('https://up.example/v2/chat');
    expect(req.body).toMatchObject({ model: 'm1', stream: true, max_tokens: 9, p: 0.5, stop_sequences: ['END'], tool_choice: 'REQUIRED', tools: [{ type: 'function', function: { name: 'add' } }] });
    expect((req.body as any).messages[1].content).toEqual([{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,QUJD' } }]);
    expect(cohere.buildRequest('rerank', { model: 'r', query: 'q', documents: ['a', { text: 'b' }], top_n: 1 }, channel(36), { stream: false, raw: false, model: 'r' }).body).toEqual({ model: 'r', query: 'q', documents: ['a', 'b'], top_n: 1 });
  });

  it('converts answers with billed units (search units count as completion)', () => {
    const answer = cohere.transformResponse!('chat/completions', {
      id: 'c-1', finish_reason: 'MAX_TOKENS',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hi ' }, { type: 'text', text: 'there' }] },
      usage: { billed_units: { input_tokens: 7, output_tokens: 2, search_units: 1 }, tokens: { input_tokens: 70, output_tokens: 2 } },
    }, chat) as any;
    expect(answer).toMatchObject({ id: 'c-1', model: 'm1', choices: [{ message: { content: 'Hi there' }, finish_reason: 'length' }], usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const rerank = cohere.transformResponse!('rerank', { id: 'r', results: [{ index: 1, relevance_score: 0.9 }] }, { model: 'r', documents: ['a', 'b'], return_documents: true }) as any;
    expect(rerank.results).toEqual([{ index: 1, relevance_score: 0.9, document: { text: 'b' } }]);
  });

  it('streams v2 events (text and tool calls) into OpenAI chunks', () => {
    const mapper = cohere.createStreamMapper({ forwardUsage: false });
    const out = run(mapper, [
      [{ type: 'message-start', id: 'm-9', delta: { message: { role: 'assistant' } } }, 'message-start'],
      [{ type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hel' } } } }, 'content-delta'],
      [{ type: 'content-delta', index: 0, delta: { message: { content: { text: 'lo' } } } }, 'content-delta'],
      [{ type: 'tool-call-start', index: 1, delta: { message: { tool_calls: { id: 't1', type: 'function', function: { name: 'add', arguments: '' } } } } }],
      [{ type: 'tool-call-delta', index: 1, delta: { message: { tool_calls: { function: { arguments: '{"a":1}' } } } } }],
      [{ type: 'citation-start', index: 0 }],
      [{ type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage: { billed_units: { input_tokens: 4, output_tokens: 6 } } } }, 'message-end'],
    ]);
    expect(out.every((c) => c === '[DONE]' || c.id === 'm-9')).toBe(true);
    expect(out.slice(1, 3).map((c) => c.choices[0].delta.content)).toEqual(['Hel', 'lo']);
    expect(out[3].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, id: 't1', function: { name: 'add' } });
    expect(out[4].choices[0].delta.tool_calls[0]).toEqual({ index: 0, function: { arguments: '{"a":1}' } });
    expect(out[5].choices[0].finish_reason).toBe('tool_calls');
    expect(out).toHaveLength(7); // no usage chunk: the caller did not ask
    expect(mapper.usage()).toMatchObject({ promptTokens: 4, completionTokens: 6 });
  });

  it('maps top-level message errors', () => {
    expect(cohere.mapError(401, '{"id":"x","message":"invalid api token"}')).toMatchObject({ status: 401, message: 'Provider API error: invalid api token' });
  });
});

describe('Ali DashScope adapter', () => {
  const ali = adapterFor(17)!;

  it('builds the generation call; streams ask for SSE and incremental output; plugin header from other', () => {
    const req = ali.buildRequest('chat/completions', { ...chat, model: 'qwen-plus' }, channel(17, { other: 'web' }), { stream: true, raw: false, model: 'qwen-plus' });
    expect(req.url).toBe('https://up.example/api/v1/services/aigc/text-generation/generation');
    expect(req.headers).toMatchObject({ authorization: 'Bearer k-1', 'x-dashscope-sse': 'enable', 'x-dashscope-plugin': 'web' });
    expect(req.body).toEqual({
      model: 'qwen-plus',
      input: { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] },
      parameters: { result_format: 'message', incremental_output: true, max_tokens: 9, temperature: 0.1, stop: 'END' },
    });
    const vl = ali.buildRequest('chat/completions', { ...chat, model: 'qwen-vl-max' }, channel(17), { stream: false, raw: false, model: 'qwen-vl-max' });
    expect(vl.url).toContain('/multimodal-generation/generation');
    expect((vl.body as any).input.messages[1].content).toEqual([{ text: 'hi' }, { image: 'data:image/png;base64,QUJD' }]);
  });

  it('converts answers and embeddings', () => {
    const answer = ali.transformResponse!('chat/completions', {
      request_id: 'r1', output: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'Hi', reasoning_content: 'think' } }] },
      usage: { input_tokens: 8, output_tokens: 1, total_tokens: 9 },
    }, { model: 'qwen-plus' }) as any;
    expect(answer).toMatchObject({ id: 'chatcmpl-r1', model: 'qwen-plus', choices: [{ message: { content: 'Hi', reasoning_content: 'think' }, finish_reason: 'stop' }], usage: { prompt_tokens: 8, completion_tokens: 1 } });
    const emb = ali.transformResponse!('embeddings', { output: { embeddings: [{ text_index: 1, embedding: [2] }, { text_index: 0, embedding: [1] }] }, usage: { total_tokens: 3 } }, { model: 'text-embedding-v1' }) as any;
    expect(emb.data.map((d: any) => d.embedding)).toEqual([[1], [2]]);
  });

  it('streams incremental events; the string "null" means not finished; error events fail the stream', () => {
    const mapper = ali.createStreamMapper({ forwardUsage: true });
    const ev = (content: string, finish: string, out: number) => ({ output: { choices: [{ message: { role: 'assistant', content }, finish_reason: finish }] }, usage: { input_tokens: 5, output_tokens: out }, request_id: 'q' });
    const out = run(mapper, [[ev('Hel', 'null', 1), 'result'], [ev('lo', 'null', 2), 'result'], [ev('', 'stop', 2), 'result']]);
    expect(out.slice(0, 2).map((c) => c.choices[0].delta.content)).toEqual(['Hel', 'lo']);
    expect(out[2].choices[0].finish_reason).toBe('stop');
    expect(out[3].usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
    expect(mapper.ended!()).toBe(true);
    expect(() => ali.createStreamMapper({ forwardUsage: false }).onEvent('{"code":"Throttling","message":"slow down"}', 'error')).toThrow('DashScope: slow down');
  });
});

describe('Coze adapter', () => {
  const coze = adapterFor(38)!;

  it('builds a v3 streamed chat for the bot named by the model, without system messages', () => {
    const req = coze.buildRequest('chat/completions', { model: 'coze-7341', messages: chat.messages, user: 'u-9' }, channel(38, { baseUrl: 'https://api.coze.com/open_api' }), { stream: false, raw: false, model: 'coze-7341' });
    expect(req.url).toBe('https://api.coze.com/v3/chat');
    expect(req.body).toEqual({ bot_id: '7341', user_id: 'u-9', stream: true, auto_save_history: false, additional_messages: [{ role: 'user', content: 'hi', content_type: 'text' }] });
  });

  it('maps answer deltas and the chat completion; ignores verbose and follow-up messages; failures throw', () => {
    const mapper = coze.createStreamMapper({ forwardUsage: true });
    const out = run(mapper, [
      [{ id: 'chat-1', status: 'created' }, 'conversation.chat.created'],
      [{ role: 'assistant', type: 'answer', content: 'Hi' }, 'conversation.message.delta'],
      [{ role: 'assistant', type: 'answer', content: 'Hi' }, 'conversation.message.completed'],
      [{ role: 'assistant', type: 'follow_up', content: 'More?' }, 'conversation.message.completed'],
      [{ id: 'chat-1', status: 'completed', usage: { input_count: 6, output_count: 1, token_count: 7 } }, 'conversation.chat.completed'],
      ['"[DONE]"', 'done'],
    ]);
    expect(out.map((c) => (c === '[DONE]' ? c : c.id))).toEqual(['chatcmpl-chat-1', 'chatcmpl-chat-1', 'chatcmpl-chat-1', '[DONE]']);
    expect(out[0].choices[0].delta.content).toBe('Hi');
    expect(out[2].usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 1 });
    expect(() => coze.createStreamMapper({ forwardUsage: false }).onEvent(JSON.stringify({ last_error: { code: 720, msg: 'bot offline' } }), 'conversation.chat.failed')).toThrow('bot offline');
    expect(() => coze.transformResponse!('chat/completions', { code: 4100, msg: 'token invalid' }, {})).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('joins a whole SSE answer into one chat.completion for JSON callers', async () => {
    const { assembleStream } = await import('./shared/assemble.js');
    const sse = [
      'event:conversation.chat.created\ndata:{"id":"c9"}\n\n',
      'event:conversation.message.delta\ndata:{"role":"assistant","type":"answer","content":"Hel"}\n\n',
      'event:conversation.message.delta\ndata:{"role":"assistant","type":"answer","content":"lo"}\n\n',
      'event:conversation.chat.completed\ndata:{"usage":{"input_count":3,"output_count":2}}\n\n',
    ].join('');
    const answer = assembleStream(coze.createStreamMapper({ forwardUsage: true }), sse, 'coze-x');
    expect(answer).toMatchObject({ id: 'chatcmpl-c9', model: 'coze-x', choices: [{ message: { content: 'Hello' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2 } });
  });
});
