import type { HubMessage, HubRequest } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';

/** Cohere v2 messages take OpenAI's roles, tool calls and tool results; content as text (images as image_url parts for vision models). */
function toCohere(m: HubMessage): Record<string, unknown> {
  const role = m.role === 'developer' ? 'system' : m.role === 'function' ? 'tool' : m.role;
  const hasImage = Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url');
  const content = hasImage && Array.isArray(m.content)
    ? m.content.flatMap((p): Array<Record<string, unknown>> => (p.type === 'text' ? [{ type: 'text', text: p.text }] : p.type === 'image_url' ? [{ type: 'image_url', image_url: { url: p.image_url.url } }] : []))
    : textOf(m.content);
  const out: Record<string, unknown> = { role, content };
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: c.function }));
  if (role === 'tool') out.tool_call_id = m.tool_call_id;
  if (role === 'assistant' && !content && m.tool_calls?.length) delete out.content;
  return out;
}

/** OpenAI chat → Cohere `/v2/chat`. */
export function cohereChatBody(req: HubRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model: req.model, messages: (req.messages ?? []).map(toCohere), stream };
  const copy = (from: unknown, to: string) => {
    if (from !== undefined && from !== null) body[to] = from;
  };
  copy(req.max_completion_tokens ?? req.max_tokens, 'max_tokens');
  copy(req.temperature, 'temperature');
  copy(req.top_p, 'p');
  copy(req.top_k, 'k');
  copy(req.seed, 'seed');
  copy(typeof req.stop === 'string' ? [req.stop] : req.stop, 'stop_sequences');
  copy(req.frequency_penalty, 'frequency_penalty');
  copy(req.presence_penalty, 'presence_penalty');
  if (req.tools?.length) body.tools = req.tools.map((t) => ({ type: 'function', function: t.function }));
  if (req.tool_choice === 'required') body.tool_choice = 'REQUIRED';
  else if (req.tool_choice === 'none') body.tool_choice = 'NONE';
  const format = req.response_format;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema') body.response_format = { type: 'json_object', json_schema: format.json_schema.schema };
  return body;
}

/** The gateway's rerank body (Jina/Cohere style) → Cohere `/v2/rerank` (documents as strings). */
export function cohereRerankBody(body: Record<string, unknown>): Record<string, unknown> {
  const documents = Array.isArray(body.documents) ? body.documents.map((d) => (typeof d === 'string' ? d : String((d as { text?: unknown })?.text ?? JSON.stringify(d)))) : [];
  const out: Record<string, unknown> = { model: body.model, query: body.query, documents };
  if (typeof body.top_n === 'number') out.top_n = body.top_n;
  return out;
}

/** OpenAI embeddings → Cohere `/v2/embed` (float vectors). */
export function cohereEmbedBody(body: Record<string, unknown>): Record<string, unknown> {
  const texts = Array.isArray(body.input) ? body.input : [body.input];
  return { model: body.model, texts, input_type: 'search_document', embedding_types: ['float'] };
}
