import type { HubChunk, HubToolCall } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, type Usage } from '../openai/usage.js';
import { finishReasonToGemini } from './finish-reason.js';
import { messageToParts } from './response.js';
import type { GeminiError, GeminiPart, GeminiResponse } from './types.js';
import { usageToGemini } from './usage.js';
import { reasoningOf } from '../openai/reasoning.js';

export interface HubToGeminiStream {
  /** One hub chunk → Gemini stream chunks (text and thoughts at once; function calls when complete). */
  push(chunk: HubChunk): GeminiResponse[];
  /** Upstream ended: pending function calls, finishReason and usageMetadata in one last chunk. */
  finish(usage?: Usage): GeminiResponse[];
  /** Upstream failed after the first byte: Google's error body. */
  error(err: { message: string; code?: number; status?: string }): GeminiError[];
  usage(): Usage | null;
  warnings: string[];
}

/** Per-request state machine: OpenAI chat chunks → Gemini `alt=sse` GenerateContentResponse chunks. */
export function createHubToGeminiStream(opts: { model: string; responseId?: string }): HubToGeminiStream {
  const warnings: string[] = [];
  const calls = new Map<number, HubToolCall>();
  let finishReason: string | null = null;
  let usage: Usage | null = null;
  let done = false;
  const wrap = (parts: GeminiPart[], extra: Partial<GeminiResponse> = {}): GeminiResponse => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(extra.candidates?.[0] ?? {}) }],
    modelVersion: opts.model,
    ...(opts.responseId ? { responseId: opts.responseId } : {}),
    ...(extra.usageMetadata ? { usageMetadata: extra.usageMetadata } : {}),
  });

  function push(chunk: HubChunk): GeminiResponse[] {
    if (done) return [];
    if (chunk.usage) usage = usageFromOpenAI(chunk.usage) ?? usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return [];
    if (chunk.choices.length > 1) warnings.push('stream: choices other than the first dropped');
    const d = choice.delta ?? {};
    for (const tc of d.tool_calls ?? []) {
      const cur = calls.get(tc.index) ?? { id: tc.id ?? '', type: 'function' as const, function: { name: '', arguments: '' } };
      if (tc.id) cur.id = tc.id;
      if (tc.function?.name) cur.function.name += tc.function.name;
      if (tc.function?.arguments) cur.function.arguments += tc.function.arguments;
      if (tc.extra_content) cur.extra_content = tc.extra_content;
      calls.set(tc.index, cur);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const parts = messageToParts({ role: 'assistant', content: typeof d.content === 'string' ? d.content : null, reasoning_content: reasoningOf(d), extra_content: d.extra_content }, warnings, 'delta');
    return parts.length ? [wrap(parts)] : [];
  }

  function finish(final?: Usage): GeminiResponse[] {
    if (done) return [];
    done = true;
    if (final) usage = final;
    const tool_calls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    const parts = tool_calls.length ? messageToParts({ role: 'assistant', tool_calls }, warnings, 'stream') : [{ text: '' }];
    const last = wrap(parts, { usageMetadata: usageToGemini(usage ?? emptyUsage()) });
    last.candidates![0].finishReason = finishReasonToGemini(finishReason);
    return [last];
  }

  function error(err: { message: string; code?: number; status?: string }): GeminiError[] {
    if (done) return [];
    done = true;
    return [{ error: { code: err.code ?? 500, message: err.message, status: err.status ?? 'INTERNAL' } }];
  }

  return { push, finish, error, usage: () => usage, warnings };
}
