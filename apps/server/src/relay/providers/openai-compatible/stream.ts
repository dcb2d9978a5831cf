import type { StreamMapper, Usage } from '../types.js';
import { readOpenAIUsage } from './usage.js';

interface Chunk {
  type?: string;
  delta?: unknown;
  response?: { usage?: unknown };
  choices?: Array<{ delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: Array<{ function?: { arguments?: unknown } }> }; text?: unknown }>;
  usage?: unknown;
}

/**
 * OpenAI chat/completions stream: frames pass through byte for byte; usage is
 * tapped; a usage-only chunk the caller did not ask for is held back.
 */
export function createOpenAIStreamMapper(opts: { forwardUsage: boolean }): StreamMapper {
  let usage: Usage | null = null;
  const parts: string[] = [];
  let responsesApi = false;
  return {
    onEvent(data) {
      if (data === '[DONE]') return [];
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        return [data];
      }
      // Responses API events: usage arrives on response.completed, text as output_text deltas.
      if (typeof chunk.type === 'string' && chunk.type.startsWith('response.')) {
        responsesApi = true;
        if (typeof chunk.delta === 'string') parts.push(chunk.delta);
        const done = readOpenAIUsage(chunk.response?.usage);
        if (done && (done.promptTokens || done.completionTokens)) usage = done;
        return [data];
      }
      const seen = readOpenAIUsage(chunk.usage);
      if (seen && (seen.promptTokens || seen.completionTokens)) usage = seen;
      for (const choice of chunk.choices ?? []) {
        const d = choice.delta;
        if (typeof d?.content === 'string') parts.push(d.content);
        if (typeof d?.reasoning_content === 'string') parts.push(d.reasoning_content);
        for (const call of d?.tool_calls ?? []) if (typeof call.function?.arguments === 'string') parts.push(call.function.arguments);
        if (typeof choice.text === 'string') parts.push(choice.text);
      }
      const usageOnly = chunk.usage != null && (!chunk.choices || chunk.choices.length === 0);
      return usageOnly && !opts.forwardUsage ? [] : [data];
    },
    usage: () => usage,
    text: () => parts.join(''),
    // Chat streams end with [DONE]; Responses API streams end with response.completed alone.
    finish: () => (responsesApi ? [] : ['[DONE]']),
  };
}
