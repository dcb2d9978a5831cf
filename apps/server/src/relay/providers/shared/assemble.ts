import { createParser } from 'eventsource-parser';
import type { HubFinishReason, HubResponse, HubToolCall } from '../../formats/openai/types.js';
import type { StreamMapper } from '../types.js';
import { chatAnswer, usageJson } from './openai-shapes.js';

interface Chunk {
  id?: string;
  choices?: Array<{ delta?: { content?: string; reasoning_content?: string; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: HubFinishReason | null }>;
}

/**
 * A whole SSE answer (from a provider that only streams) → one chat.completion, by running the
 * adapter's own stream mapper over it and joining the OpenAI chunks it emits.
 */
export function assembleStream(mapper: StreamMapper, sse: string, model: string): HubResponse {
  let id: string | undefined;
  let content = '';
  let reasoning = '';
  let finish: HubFinishReason = 'stop';
  const calls: HubToolCall[] = [];
  const take = (data: string) => {
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data) as Chunk;
    id ??= chunk.id;
    for (const choice of chunk.choices ?? []) {
      content += choice.delta?.content ?? '';
      reasoning += choice.delta?.reasoning_content ?? '';
      for (const t of choice.delta?.tool_calls ?? []) {
        calls[t.index] ??= { id: t.id ?? '', type: 'function', function: { name: '', arguments: '' } };
        calls[t.index].function.name += t.function?.name ?? '';
        calls[t.index].function.arguments += t.function?.arguments ?? '';
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  };
  const parser = createParser({
    onEvent(event) {
      for (const frame of mapper.onEvent(event.data, event.event)) take(typeof frame === 'string' ? frame : frame.data);
    },
  });
  parser.feed(sse);
  for (const frame of mapper.finish()) take(typeof frame === 'string' ? frame : frame.data);
  const usage = mapper.usage();
  return chatAnswer({
    id,
    model,
    content,
    reasoning: reasoning || undefined,
    toolCalls: calls.filter(Boolean),
    finish,
    usage: usage ? usageJson(usage.promptTokens, usage.completionTokens, usage.reasoningTokens) : undefined,
  });
}
