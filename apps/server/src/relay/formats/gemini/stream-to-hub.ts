import { nowSeconds, randomIds, type IdSource } from '../shared/ids.js';
import type { HubChunk, HubChunkChoice, HubDelta } from '../openai/types.js';
import { usageToOpenAI, type Usage } from '../openai/usage.js';
import { finishReasonToHub } from './finish-reason.js';
import { readParts } from './parts.js';
import type { GeminiResponse } from './types.js';
import { usageFromGemini } from './usage.js';

export interface GeminiToHubStream {
  /** One `alt=sse` chunk (a GenerateContentResponse) → hub chunks. */
  push(chunk: GeminiResponse): HubChunk[];
  /** Upstream ended: the usage chunk when asked for. */
  finish(): HubChunk[];
  usage(): Usage | null;
  warnings: string[];
}

export interface GeminiToHubStreamOptions {
  model: string;
  includeUsage?: boolean;
  ids?: IdSource;
  now?: number;
}

/** Per-request state machine: Gemini stream chunks → OpenAI chat chunks (one stable id, tool-call indexes per candidate). */
export function createGeminiToHubStream(opts: GeminiToHubStreamOptions): GeminiToHubStream {
  const warnings: string[] = [];
  const ids = opts.ids ?? randomIds;
  const created = opts.now ?? nowSeconds();
  let id: string | null = null;
  let usage: Usage | null = null;
  let finished = false;
  const roleSent = new Set<number>();
  const toolCount = new Map<number, number>();
  const base = (choices: HubChunkChoice[]): HubChunk => ({ id: id!, object: 'chat.completion.chunk', created, model: opts.model, choices });

  function push(chunk: GeminiResponse): HubChunk[] {
    id ??= chunk.responseId ? `chatcmpl-${chunk.responseId}` : ids.next('chatcmpl');
    if (chunk.usageMetadata) usage = usageFromGemini(chunk.usageMetadata);
    const out: HubChunk[] = [];
    (chunk.candidates ?? []).forEach((c, i) => {
      const index = c.index ?? i;
      const s = readParts(c.content?.parts ?? [], ids, warnings);
      const delta: HubDelta = {};
      if (!roleSent.has(index)) {
        roleSent.add(index);
        delta.role = 'assistant';
      }
      if (s.reasoning) delta.reasoning_content = s.reasoning;
      if (s.text) delta.content = s.text;
      if (s.signature) delta.extra_content = { google: { thought_signature: s.signature } };
      if (s.images.length) delta.images = s.images;
      if (s.toolCalls.length) {
        const first = toolCount.get(index) ?? 0;
        delta.tool_calls = s.toolCalls.map((tc, k) => ({ index: first + k, ...tc }));
        toolCount.set(index, first + s.toolCalls.length);
      }
      const finish = finishReasonToHub(c.finishReason, (toolCount.get(index) ?? 0) > 0);
      if (Object.keys(delta).length || finish) out.push(base([{ index, delta, finish_reason: finish }]));
    });
    if (!chunk.candidates?.length && chunk.promptFeedback?.blockReason) {
      warnings.push(`prompt blocked: ${chunk.promptFeedback.blockReason}`);
      out.push(base([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }]));
    }
    return out;
  }

  function finish(): HubChunk[] {
    if (finished || !opts.includeUsage || !usage) return [];
    finished = true;
    id ??= ids.next('chatcmpl');
    return [{ ...base([]), usage: usageToOpenAI(usage) }];
  }

  return { push, finish, usage: () => usage, warnings };
}
