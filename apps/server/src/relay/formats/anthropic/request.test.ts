import { describe, expect, it } from 'vitest';
import { jsonFixture } from '../shared/fixture.js';
import { FormatError } from '../shared/errors.js';
import type { HubRequest } from '../openai/types.js';
import { anthropicRequestToHub } from './request-to-hub.js';
import { hubRequestToAnthropic, type HubToAnthropicOptions } from './request-from-hub.js';
import { parseAnthropicRequest } from './schemas.js';
import type { AnthropicRequest } from './types.js';

const opts: HubToAnthropicOptions = { defaultMaxTokens: 8192, budgetPercentage: 0.8 };
const hub = (p: Partial<HubRequest>): HubRequest => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...p });
const toA = (p: Partial<HubRequest>, o: Partial<HubToAnthropicOptions> = {}) => hubRequestToAnthropic(hub(p), { ...opts, ...o });

describe('hubRequestToAnthropic', () => {
  it('moves system messages to the top level and uses the default max_tokens', () => {
    const { value } = toA({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'No emoji.' }, { role: 'user', content: 'hi' }] });
    expect(value).toEqual({ model: 'm', max_tokens: 8192, system: 'Be brief.\nNo emoji.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  });
  it('keeps cache_control on system parts as blocks', () => {
    const { value } = toA({ messages: [{ role: 'system', content: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }] }, { role: 'user', content: 'q' }] });
    expect(value.system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
  });
  it('warns when a mid-conversation system message moves up', () => {
    const { warnings } = toA({ messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'late' }] });
    expect(warnings.join()).toMatch(/moved to the top-level system/);
  });
  it.each([
    ['string stop', { stop: 'END' }, { stop_sequences: ['END'] }],
    ['list stop, whitespace-only dropped', { stop: ['a', ' '] }, { stop_sequences: ['a'] }],
    ['temperature and top_p', { temperature: 0.3, top_p: 0.9 }, { temperature: 0.3, top_p: 0.9 }],
    ['max_completion_tokens wins', { max_tokens: 10, max_completion_tokens: 20 }, { max_tokens: 20 }],
    ['user → metadata', { user: 'u1' }, { metadata: { user_id: 'u1' } }],
    ['tool_choice required → any', { tool_choice: 'required' as const }, { tool_choice: { type: 'any' } }],
    ['tool_choice named', { tool_choice: { type: 'function' as const, function: { name: 'f' } } }, { tool_choice: { type: 'tool', name: 'f' } }],
    ['parallel off', { parallel_tool_calls: false }, { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }],
    ['effort → budget share of max_tokens', { max_tokens: 10000, reasoning_effort: 'low' as const }, { thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 10000 }],
    ['exact budget', { max_tokens: 10000, reasoning: { max_tokens: 4000 } }, { thinking: { type: 'enabled', budget_tokens: 4000 } }],
    ['budget at least 1024', { max_tokens: 2000, reasoning_effort: 'minimal' as const }, { thinking: { type: 'enabled', budget_tokens: 1024 } }],
  ])('%s', (_n, p, expected) => {
    expect(toA(p as Partial<HubRequest>).value).toMatchObject(expected);
  });
  it('uses the passed-in percentage when thinking is forced without a size', () => {
    expect(toA({ max_tokens: 10000 }, { thinking: true }).value.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
  });
  it('raises max_tokens above an explicit budget and says so', () => {
    const { value, warnings } = toA({ max_tokens: 2000, reasoning: { max_tokens: 5000 } });
    expect(value.max_tokens).toBe(7000);
    expect(warnings.join()).toMatch(/max_tokens raised/);
  });
  it('drops sampling knobs thinking forbids, with warnings', () => {
    const { value, warnings } = toA({ reasoning_effort: 'high', temperature: 0.2, top_k: 5, top_p: 0.5, tool_choice: 'required' });
    expect(value.temperature).toBeUndefined();
    expect(value.top_k).toBeUndefined();
    expect(value.top_p).toBeUndefined();
    expect(value.tool_choice).toEqual({ type: 'auto' });
    expect(warnings).toHaveLength(4);
  });
  it('turns thinking off when the last tool-calling assistant turn has no signed thinking', () => {
    const { value, warnings } = toA({ reasoning_effort: 'high', messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ] });
    expect(value.thinking).toBeUndefined();
    expect(warnings).toContain('thinking disabled: the last assistant tool call has no signed thinking block to continue from');
  });
  it('a message-level cache_control marks the last block', () => {
    const { value } = toA({ messages: [{ role: 'system', content: 'S', cache_control: { type: 'ephemeral' } }, { role: 'user', content: 'q', cache_control: { type: 'ephemeral' } }] });
    expect(value.system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    expect(value.messages[0].content).toEqual([{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }]);
  });
  it('clamps temperature above 1 with a warning', () => {
    const { value, warnings } = toA({ temperature: 1.6 });
    expect(value.temperature).toBe(1);
    expect(warnings).toEqual(['temperature 1.6 lowered to 1 (Anthropic\'s maximum)']);
  });
  it('converts images: data URL → base64, http → url, pdf → document', () => {
    const { value } = toA({ messages: [{ role: 'user', content: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://x.test/cat.jpg' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
    ] }] });
    expect(value.messages[0].content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://x.test/cat.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
    ]);
  });
  it('tool calls and results, merged into alternating turns', () => {
    const { value } = toA({ messages: [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' } },
        { id: 'c2', type: 'function', function: { name: 't', arguments: '' } },
      ] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: '12:00' }] },
      { role: 'user', content: 'thanks' },
    ], tools: [{ type: 'function', function: { name: 'w', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }, { type: 'function', function: { name: 't' } }] });
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'c1', name: 'w', input: { city: 'Paris' } }, { type: 'tool_use', id: 'c2', name: 't', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'sunny' }, { type: 'tool_result', tool_use_id: 'c2', content: '12:00' }, { type: 'text', text: 'thanks' }] },
    ]);
    expect(value.tools).toEqual([
      { name: 'w', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      { name: 't', input_schema: { type: 'object', properties: {} } },
    ]);
  });
  it('merges consecutive user turns and adds a user turn before a leading assistant', () => {
    const { value, warnings } = toA({ messages: [{ role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'a' }, { role: 'user', content: 'b' }] });
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(value.messages[2].content).toHaveLength(2);
    expect(warnings.join()).toMatch(/placeholder user turn/);
  });
  it('rejects unparseable tool arguments with a 400-style error', () => {
    expect(() => toA({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{bad' } }] }] })).toThrow(FormatError);
  });
  it('keeps signed thinking and strips foreign reasoning', () => {
    const signed = toA({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning_content: 'r', thinking_blocks: [{ type: 'thinking', thinking: 'r', signature: 'sig' }] }, { role: 'user', content: 'q2' }] });
    expect(signed.value.messages[1].content).toEqual([{ type: 'thinking', thinking: 'r', signature: 'sig' }, { type: 'text', text: 'a' }]);
    const foreign = toA({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning_content: 'deepseek thoughts' }, { role: 'user', content: 'q2' }] });
    expect(foreign.value.messages[1].content).toEqual([{ type: 'text', text: 'a' }]);
    expect(foreign.warnings.join()).toMatch(/unsigned reasoning/);
  });
  it('approximates JSON mode in the system prompt and reports dropped params', () => {
    const { value, warnings } = toA({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } }, seed: 3, logprobs: true });
    expect(value.system).toMatch(/JSON object matching this JSON schema: \{"type":"object"\}/);
    expect(warnings).toEqual(expect.arrayContaining(['request: dropped unsupported field "seed"', 'request: dropped unsupported field "logprobs"', 'response_format json_schema approximated by a system instruction']));
  });
});

describe('anthropicRequestToHub', () => {
  const cc = parseAnthropicRequest(jsonFixture<AnthropicRequest>('anthropic', 'request-claude-code.json'));
  const { value, warnings } = anthropicRequestToHub(cc);
  it('system blocks with cache_control stay parts', () => {
    expect(value.messages[0]).toEqual({ role: 'system', content: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: 'text', text: 'Working directory: /home/dev/project', cache_control: { type: 'ephemeral' } },
    ] });
  });
  it('assistant thinking, text and tool_use', () => {
    expect(value.messages[2]).toEqual({
      role: 'assistant', content: 'Listing files.', reasoning_content: "I'll list the directory first.",
      thinking_blocks: [{ type: 'thinking', thinking: "I'll list the directory first.", signature: 'EqQBCgIYAhIMsig1' }],
      tool_calls: [
        { id: 'toolu_01Ls', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
        { id: 'toolu_01Rd', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/home/dev/project/README.md"}' } },
      ],
    });
  });
  it('tool results become tool messages before the user text; images move to the user turn', () => {
    expect(value.messages.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_01Ls', content: 'README.md\nsrc\npackage.json' },
      { role: 'tool', tool_call_id: 'toolu_01Rd', content: '# Project' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'text', text: 'Now summarise.' }] },
    ]);
  });
  it('params, tools, thinking and reported drops', () => {
    expect(value).toMatchObject({ model: 'claude-sonnet-4-5-20250929', max_tokens: 32000, stream: true, stream_options: { include_usage: true }, temperature: 1, user: 'user_abc_account__session_123', reasoning: { max_tokens: 31999 }, reasoning_effort: 'high', tool_choice: 'auto' });
    expect(value.tools?.map((t) => t.function.name)).toEqual(['Bash', 'Read']);
    expect(value.tools?.[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(warnings).toEqual(['messages.2: image inside tool_result moved to a user message', 'tools: server tool "web_search" (web_search_20250305) dropped']);
  });
  it('round trip hub → Anthropic keeps the conversation', () => {
    const back = hubRequestToAnthropic(value, opts).value;
    expect(back.messages).toHaveLength(3);
    expect(back.messages[1].content).toEqual((cc.messages[1].content));
    expect(back.thinking).toEqual({ type: 'enabled', budget_tokens: 31999 });
    expect(back.max_tokens).toBeGreaterThan(31999);
    expect(back.system).toEqual(cc.system);
    expect(back.tools).toEqual(cc.tools!.slice(0, 2));
    expect(back.messages[0].content).toEqual(cc.messages[0].content);
  });
  it('cache_control on a tool_result survives the round trip', () => {
    const req: AnthropicRequest = { model: 'c', max_tokens: 10, messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ] };
    const hubReq = anthropicRequestToHub(req).value;
    expect(hubReq.messages[2]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'r', cache_control: { type: 'ephemeral', ttl: '1h' } });
    expect(hubRequestToAnthropic(hubReq, opts).value.messages).toEqual(req.messages.map((m, i) => (i === 0 ? { role: 'user', content: [{ type: 'text', text: 'q' }] } : m)));
  });
  it('URL documents are reported, not turned into text', () => {
    const r = anthropicRequestToHub({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://x.test/a.pdf' } }, { type: 'text', text: 'sum' }] }] });
    expect(r.value.messages).toEqual([{ role: 'user', content: 'sum' }]);
    expect(r.warnings).toEqual(['document at https://x.test/a.pdf dropped (URL documents have no chat equivalent)']);
  });
  it.each([
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [{ type: 'tool', name: 'Bash' }, { type: 'function', function: { name: 'Bash' } }],
  ])('tool_choice %j', (tc, expected) => {
    expect(anthropicRequestToHub({ ...cc, tool_choice: tc as AnthropicRequest['tool_choice'] }).value.tool_choice).toEqual(expected);
  });
  it('parses a plain string request and rejects a missing max_tokens', () => {
    const r = anthropicRequestToHub(parseAnthropicRequest({ model: 'c', max_tokens: 5, system: 'sys', messages: [{ role: 'user', content: 'hi' }], stop_sequences: ['X'] }));
    expect(r.value).toEqual({ model: 'c', max_tokens: 5, stop: ['X'], messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hi' }] });
    expect(() => parseAnthropicRequest({ model: 'c', messages: [{ role: 'user', content: 'x' }] })).toThrow(/max_tokens/);
  });
  it('output_format json_schema → response_format', () => {
    const r = anthropicRequestToHub({ ...cc, output_format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(r.value.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' } } });
  });
});
