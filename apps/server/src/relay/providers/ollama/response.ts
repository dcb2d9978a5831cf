import type { HubFinishReason, HubToolCall } from '../../formats/openai/types.js';
import { callId, chatAnswer, ChunkStream, embeddingsAnswer, usageJson } from '../shared/openai-shapes.js';
import type { StreamDecoder, StreamMapper } from '../types.js';

interface OllamaToolCall {
  function?: { name?: string; arguments?: unknown };
}

export interface OllamaChat {
  model?: string;
  created_at?: string;
  message?: { role?: string; content?: string; thinking?: string; tool_calls?: OllamaToolCall[] };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

function toolCalls(calls: OllamaToolCall[] | undefined): HubToolCall[] {
  return (calls ?? []).map((c) => ({
    id: callId(),
    type: 'function' as const,
    function: { name: c.function?.name ?? '', arguments: typeof c.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}) },
  }));
}

const finishOf = (reason: string | undefined, hasCalls: boolean): HubFinishReason => (hasCalls ? 'tool_calls' : reason === 'length' ? 'length' : 'stop');

const createdOf = (at: string | undefined) => {
  const ms = at ? Date.parse(at) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
};

/** Ollama `/api/chat` and `/api/embed` answers → OpenAI's shapes. */
export function ollamaAnswer(endpoint: string, json: unknown, request: unknown): unknown {
  const req = (request ?? {}) as { model?: string; encoding_format?: unknown };
  if (endpoint === 'embeddings') {
    const e = json as { model?: string; embeddings?: number[][]; prompt_eval_count?: number };
    return embeddingsAnswer(e.model ?? req.model ?? '', e.embeddings ?? [], e.prompt_eval_count ?? 0, req.encoding_format);
  }
  const c = json as OllamaChat;
  const calls = toolCalls(c.message?.tool_calls);
  return chatAnswer({
    model: c.model ?? req.model ?? '',
    created: createdOf(c.created_at),
    content: c.message?.content ?? '',
    reasoning: c.message?.thinking,
    toolCalls: calls,
    finish: finishOf(c.done_reason, calls.length > 0),
    usage: usageJson(c.prompt_eval_count ?? 0, c.eval_count ?? 0),
  });
}

/** Ollama streams newline-delimited JSON; an `{"error"}` line is a failure inside the stream. */
export function ndjsonDecoder(): StreamDecoder {
  let buffered = '';
  const decoder = new TextDecoder();
  return {
    push(chunk, emit) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        if (line.startsWith('{"error"')) throw new Error(`Ollama: ${(JSON.parse(line) as { error: string }).error}`);
        emit({ data: line });
      }
    },
  };
}

/** Each NDJSON line → OpenAI chunks; the `done` line carries the finish reason and the token counts. */
export function createOllamaStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  let calls = false;
  return out.mapper((data) => {
    let c: OllamaChat;
    try {
      c = JSON.parse(data) as OllamaChat;
    } catch {
      return [];
    }
    out.identify(undefined, c.model);
    const frames = [];
    const m = c.message;
    if (m?.content || m?.thinking) frames.push(...out.delta({ ...(m.content ? { content: m.content } : {}), ...(m.thinking ? { reasoning_content: m.thinking } : {}) }));
    if (m?.tool_calls?.length) {
      calls = true;
      const deltas = toolCalls(m.tool_calls).map((t, index) => ({ index, ...t }));
      frames.push(...out.delta({ tool_calls: deltas }));
    }
    if (c.done) {
      out.setUsage(c.prompt_eval_count ?? 0, c.eval_count ?? 0);
      out.end();
      frames.push(...out.finish(finishOf(c.done_reason, calls)));
    }
    return frames;
  });
}
