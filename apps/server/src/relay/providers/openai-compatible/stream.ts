import type { StreamMapper, Usage } from '../types.js';
import { readOpenAIUsage } from './usage.js';
import { parseFrame } from '../shared/broken-frame.js';

interface Chunk {
  type?: string;
  delta?: unknown;
  response?: { id?: unknown; created_at?: unknown; model?: unknown; usage?: unknown; service_tier?: unknown };
  service_tier?: unknown;
  choices?: Array<{ delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: Array<{ function?: { arguments?: unknown } }> }; text?: unknown }>;
  usage?: unknown;
}

/** A chunk that carries a usage object (`"usage":null` does not count). */
const HAS_USAGE = /"usage"\s*:\s*\{/;
/** Unparsed chunks kept at most this long before their text is extracted. */
const MAX_DEFERRED_CHARS = 1 << 20;

/**
 * OpenAI chat/completions stream: frames pass through byte for byte; usage is
 * tapped; a usage-only chunk the caller did not ask for is held back.
 * Content chunks are parsed only if their text is needed (upstream reported no
 * usage): most streams do report it, so most chunks are never parsed at all.
 * The text serves token counting only, so its pieces need not keep stream order.
 */
export function createOpenAIStreamMapper(opts: { forwardUsage: boolean }): StreamMapper {
  let usage: Usage | null = null;
  const parts: string[] = [];
  let responsesApi = false;
  /** A Responses stream's response.created snapshot, for its response.failed. */
  let created: Chunk['response'];
  let first = true;
  let deferred: string[] = [];
  let deferredChars = 0;

  const collect = (chunk: Chunk) => {
    for (const choice of chunk.choices ?? []) {
      const d = choice.delta;
      if (typeof d?.content === 'string') parts.push(d.content);
      if (typeof d?.reasoning_content === 'string') parts.push(d.reasoning_content);
      for (const call of d?.tool_calls ?? []) if (typeof call.function?.arguments === 'string') parts.push(call.function.arguments);
      if (typeof choice.text === 'string') parts.push(choice.text);
    }
  };
  const drain = () => {
    for (const data of deferred) {
      try {
        collect(JSON.parse(data) as Chunk);
      } catch {
        // not JSON: passed through, no text to count
      }
    }
    deferred = [];
    deferredChars = 0;
  };

  return {
    onEvent(data) {
      if (data === '[DONE]') return [];
      // The first event tells a Responses API stream (response.created) from a chat stream.
      if (!first && !responsesApi && !HAS_USAGE.test(data)) {
        deferred.push(data);
        deferredChars += data.length;
        if (deferredChars > MAX_DEFERRED_CHARS) drain();
        return [data];
      }
      first = false;
      const chunk = parseFrame<Chunk>(data);
      // Responses API events: usage arrives on response.completed, text as output_text deltas.
      if (typeof chunk.type === 'string' && chunk.type.startsWith('response.')) {
        responsesApi = true;
        if (chunk.type === 'response.created') created = chunk.response;
        if (typeof chunk.delta === 'string') parts.push(chunk.delta);
        const done = readOpenAIUsage(chunk.response?.usage, chunk.response?.service_tier);
        if (done && (done.promptTokens || done.completionTokens)) usage = done;
        return [data];
      }
      const seen = readOpenAIUsage(chunk.usage, chunk.service_tier);
      if (seen && (seen.promptTokens || seen.completionTokens)) usage = seen;
      collect(chunk);
      const usageOnly = chunk.usage != null && (!chunk.choices || chunk.choices.length === 0);
      return usageOnly && !opts.forwardUsage ? [] : [data];
    },
    usage: () => usage,
    text: () => {
      drain();
      return parts.join('');
    },
    // Chat streams end with [DONE]; Responses API streams end with response.completed alone.
    finish: () => (responsesApi ? [] : ['[DONE]']),
    // A Responses stream fails as the API does (response.failed); a chat stream with an error chunk and no [DONE].
    fail: (message) => {
      const error = { message, type: 'upstream_error', code: 'stream_interrupted' };
      if (!responsesApi) return [JSON.stringify({ error })];
      const response = { id: created?.id, object: 'response', created_at: created?.created_at, model: created?.model, status: 'failed', error: { code: 'server_error', message }, output: [], usage: null };
      return [{ event: 'response.failed', data: JSON.stringify({ type: 'response.failed', response }) }];
    },
  };
}
