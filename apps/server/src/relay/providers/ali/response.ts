import type { HubFinishReason, HubToolCall } from '../../formats/openai/types.js';
import { chatAnswer, ChunkStream, embeddingsAnswer, usageJson } from '../shared/openai-shapes.js';
import type { StreamMapper } from '../types.js';

interface DashScopeChoice {
  finish_reason?: string | null;
  message?: { content?: string | Array<{ text?: string }>; reasoning_content?: string; tool_calls?: Array<HubToolCall & { index?: number }> };
}

interface DashScopeAnswer {
  request_id?: string;
  output?: { choices?: DashScopeChoice[]; embeddings?: Array<{ text_index: number; embedding: number[] }> };
  usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
  code?: string;
  message?: string;
}

const contentText = (c: DashScopeChoice['message']) => (typeof c?.content === 'string' ? c.content : (c?.content ?? []).map((p) => p.text ?? '').join(''));
/** DashScope sends the string "null" while a stream is still going. */
const finishOf = (reason: string | null | undefined): HubFinishReason | null =>
  !reason || reason === 'null' ? null : reason === 'length' ? 'length' : reason === 'tool_calls' ? 'tool_calls' : 'stop';

export function dashScopeAnswer(endpoint: string, json: unknown, request: unknown): unknown {
  const req = (request ?? {}) as { model?: string; encoding_format?: unknown };
  const a = json as DashScopeAnswer;
  if (endpoint === 'embeddings') {
    const vectors = [...(a.output?.embeddings ?? [])].sort((x, y) => x.text_index - y.text_index).map((e) => e.embedding);
    return embeddingsAnswer(req.model ?? '', vectors, a.usage?.total_tokens ?? a.usage?.input_tokens ?? 0, req.encoding_format);
  }
  const choice = a.output?.choices?.[0];
  return chatAnswer({
    id: a.request_id ? `chatcmpl-${a.request_id}` : undefined,
    model: req.model ?? '',
    content: contentText(choice?.message),
    reasoning: choice?.message?.reasoning_content || undefined,
    toolCalls: choice?.message?.tool_calls?.map(({ index: _i, ...call }) => call),
    finish: finishOf(choice?.finish_reason) ?? 'stop',
    usage: usageJson(a.usage?.input_tokens ?? 0, a.usage?.output_tokens ?? 0),
  });
}

/** DashScope SSE (`event:result`, incremental deltas, usage on every event) → OpenAI chunks. */
export function createDashScopeStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  return out.mapper((data, event) => {
    let a: DashScopeAnswer;
    try {
      a = JSON.parse(data) as DashScopeAnswer;
    } catch {
      return [];
    }
    if (event === 'error' || a.code) throw new Error(`DashScope: ${a.message ?? a.code}`);
    out.identify(a.request_id ? `chatcmpl-${a.request_id}` : undefined);
    if (a.usage) out.setUsage(a.usage.input_tokens ?? 0, a.usage.output_tokens ?? 0);
    const choice = a.output?.choices?.[0];
    const frames = [];
    const text = contentText(choice?.message);
    const reasoning = choice?.message?.reasoning_content;
    if (text || reasoning) frames.push(...out.delta({ ...(text ? { content: text } : {}), ...(reasoning ? { reasoning_content: reasoning } : {}) }));
    if (choice?.message?.tool_calls?.length) frames.push(...out.delta({ tool_calls: choice.message.tool_calls.map((c, i) => ({ ...c, index: c.index ?? i })) }));
    const finish = finishOf(choice?.finish_reason);
    if (finish) {
      out.end();
      frames.push(...out.finish(finish));
    }
    return frames;
  });
}
