import type { HubFinishReason, HubToolCall } from '../../formats/openai/types.js';
import { chatAnswer, ChunkStream, embeddingsAnswer, usageJson } from '../shared/openai-shapes.js';
import type { Frame, StreamMapper } from '../types.js';

interface BilledUnits {
  input_tokens?: number;
  output_tokens?: number;
  search_units?: number;
  classifications?: number;
}

/** relay.md §5.10: prompt = billed input; completion = billed output + search units + classifications. */
export function cohereUsage(usage: { billed_units?: BilledUnits } | undefined) {
  const b = usage?.billed_units ?? {};
  return usageJson(b.input_tokens ?? 0, (b.output_tokens ?? 0) + (b.search_units ?? 0) + (b.classifications ?? 0));
}

const FINISH: Record<string, HubFinishReason> = { COMPLETE: 'stop', STOP_SEQUENCE: 'stop', MAX_TOKENS: 'length', TOOL_CALL: 'tool_calls', ERROR: 'content_filter' };
const finishOf = (reason: string | undefined): HubFinishReason => FINISH[reason ?? ''] ?? 'stop';

interface CohereChat {
  id?: string;
  finish_reason?: string;
  message?: { content?: Array<{ type?: string; text?: string; thinking?: string }>; tool_plan?: string; tool_calls?: HubToolCall[] };
  usage?: { billed_units?: BilledUnits };
}

/** Cohere chat, embed and rerank answers → OpenAI's shapes. */
export function cohereAnswer(endpoint: string, json: unknown, request: unknown): unknown {
  const req = (request ?? {}) as { model?: string; encoding_format?: unknown; return_documents?: unknown; documents?: unknown[] };
  if (endpoint === 'embeddings') {
    const e = json as { embeddings?: { float?: number[][] }; meta?: { billed_units?: BilledUnits } };
    return embeddingsAnswer(req.model ?? '', e.embeddings?.float ?? [], e.meta?.billed_units?.input_tokens ?? 0, req.encoding_format);
  }
  if (endpoint === 'rerank') {
    const r = json as { id?: string; results?: Array<{ index: number; relevance_score: number }> };
    const docs = req.documents ?? [];
    return {
      id: r.id,
      model: req.model,
      results: (r.results ?? []).map((x) => ({
        index: x.index,
        relevance_score: x.relevance_score,
        ...(req.return_documents ? { document: typeof docs[x.index] === 'string' ? { text: docs[x.index] } : docs[x.index] } : {}),
      })),
    };
  }
  const c = json as CohereChat;
  const content = c.message?.content ?? [];
  return chatAnswer({
    id: c.id,
    model: req.model ?? '',
    content: content.filter((p) => p.type === 'text').map((p) => p.text ?? '').join(''),
    reasoning: content.filter((p) => p.type === 'thinking').map((p) => p.thinking ?? '').join('') || undefined,
    toolCalls: c.message?.tool_calls,
    finish: finishOf(c.finish_reason),
    usage: cohereUsage(c.usage),
  });
}

interface CohereEvent {
  type?: string;
  id?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { text?: string; thinking?: string };
      tool_plan?: string;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } };
    };
    finish_reason?: string;
    usage?: { billed_units?: BilledUnits };
  };
}

/** Cohere v2 stream events → OpenAI chunks (citations and tool plans are not forwarded). */
export function createCohereStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  let toolIndex = -1;
  return out.mapper((data): Frame[] => {
    let e: CohereEvent;
    try {
      e = JSON.parse(data) as CohereEvent;
    } catch {
      return [];
    }
    const m = e.delta?.message;
    switch (e.type) {
      case 'message-start':
        out.identify(e.id);
        return out.delta({ content: '' });
      case 'content-delta':
        if (m?.content?.thinking) return out.delta({ reasoning_content: m.content.thinking });
        return m?.content?.text ? out.delta({ content: m.content.text }) : [];
      case 'tool-call-start': {
        const call = m?.tool_calls;
        toolIndex++;
        return out.delta({ tool_calls: [{ index: toolIndex, id: call?.id, type: 'function', function: { name: call?.function?.name ?? '', arguments: call?.function?.arguments ?? '' } }] });
      }
      case 'tool-call-delta': {
        const args = m?.tool_calls?.function?.arguments;
        return args ? out.delta({ tool_calls: [{ index: Math.max(toolIndex, 0), function: { arguments: args } }] }) : [];
      }
      case 'message-end': {
        const u = cohereUsage(e.delta?.usage);
        out.setUsage(u.prompt_tokens, u.completion_tokens);
        out.end();
        return out.finish(finishOf(e.delta?.finish_reason));
      }
      default:
        return [];
    }
  });
}
