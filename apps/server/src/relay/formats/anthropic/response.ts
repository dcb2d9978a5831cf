import type { Converted } from '../shared/errors.js';
import { nowSeconds, randomIds, type IdSource } from '../shared/ids.js';
import { parseArgumentsLenient } from '../shared/json.js';
import type { HubMessage, HubResponse, HubThinkingBlock, HubToolCall } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, usageToOpenAI, type Usage } from '../openai/usage.js';
import { finishReasonToAnthropic, stopReasonToHub } from './stop-reason.js';
import type { AnthropicBlock, AnthropicResponse } from './types.js';
import { usageFromAnthropic, usageToAnthropic } from './usage.js';
import { reasoningOf } from '../openai/reasoning.js';

export interface ToHubResponse extends Converted<HubResponse> {
  usage: Usage;
}

/** Anthropic Messages response → hub chat completion (one choice), with normalised usage. */
export function anthropicResponseToHub(res: AnthropicResponse, opts: { model?: string; now?: number } = {}): ToHubResponse {
  const warnings: string[] = [];
  const message: HubMessage = { role: 'assistant', content: null };
  const texts: string[] = [];
  const reasoning: string[] = [];
  const thinking: HubThinkingBlock[] = [];
  const calls: HubToolCall[] = [];
  for (const b of res.content) {
    const block = b as AnthropicBlock;
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'thinking') {
      reasoning.push(block.thinking);
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') thinking.push({ type: 'redacted_thinking', data: block.data });
    else if (block.type === 'tool_use') calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    else warnings.push(`content: dropped block of type "${b.type}"`);
  }
  if (texts.length) message.content = texts.join('');
  if (reasoning.length) message.reasoning_content = reasoning.join('');
  if (thinking.length) message.thinking_blocks = thinking;
  if (calls.length) message.tool_calls = calls;
  const usage = usageFromAnthropic(res.usage) ?? emptyUsage();
  const value: HubResponse = {
    id: res.id,
    object: 'chat.completion',
    created: opts.now ?? nowSeconds(),
    model: opts.model ?? res.model,
    choices: [{ index: 0, message, finish_reason: stopReasonToHub(res.stop_reason) ?? 'stop' }],
    usage: usageToOpenAI(usage),
  };
  return { value, usage, warnings };
}

export interface HubToAnthropicResponseOptions {
  /** Normalised usage when the caller has it (keeps cache writes exact). */
  usage?: Usage;
  ids?: IdSource;
}

/** Hub chat completion → Anthropic Messages response (first choice). */
export function hubResponseToAnthropic(res: HubResponse, opts: HubToAnthropicResponseOptions = {}): Converted<AnthropicResponse> {
  const warnings: string[] = [];
  if (res.choices.length > 1) warnings.push(`choices: ${res.choices.length - 1} extra choice(s) dropped`);
  const choice = res.choices[0];
  const m: HubMessage = choice?.message ?? { role: 'assistant' };
  const content: AnthropicBlock[] = [];
  if (m.thinking_blocks?.length) content.push(...m.thinking_blocks);
  // Reasoning from a non-Anthropic model: shown as thinking, with an empty (unverifiable) signature.
  else if (reasoningOf(m)) content.push({ type: 'thinking', thinking: reasoningOf(m), signature: '' });
  const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  if (text) content.push({ type: 'text', text });
  if (m.images?.length) warnings.push('message.images: generated images dropped');
  m.tool_calls?.forEach((c, k) => {
    content.push({ type: 'tool_use', id: c.id, name: c.function.name, input: parseArgumentsLenient(c.function.arguments, `tool_calls.${k}`, warnings) });
  });
  const usage = opts.usage ?? usageFromOpenAI(res.usage) ?? emptyUsage();
  const id = res.id.startsWith('msg_') ? res.id : (opts.ids ?? randomIds).next('msg');
  const value: AnthropicResponse = {
    id,
    type: 'message',
    role: 'assistant',
    model: res.model,
    content,
    stop_reason: finishReasonToAnthropic(choice?.finish_reason),
    stop_sequence: null,
    usage: usageToAnthropic(usage),
  };
  return { value, warnings };
}
