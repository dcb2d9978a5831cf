import type { HubMessage, HubRequest } from '../../formats/openai/types.js';
import { isObject, parseDataUrl, textOf } from '../../formats/shared/json.js';

interface OllamaMessage {
  role: string;
  content: string;
  images?: string[];
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
  tool_name?: string;
}

/** Inline (data URL) images become base64 `images`; Ollama cannot fetch remote URLs itself. */
function imagesOf(content: HubMessage['content']): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((p) => (p.type === 'image_url' ? [parseDataUrl(p.image_url.url)?.data ?? ''] : [])).filter(Boolean);
}

function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args || '{}');
  } catch {
    return {};
  }
}

function toOllamaMessage(m: HubMessage, names: Map<string, string>): OllamaMessage {
  const out: OllamaMessage = { role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) };
  const images = imagesOf(m.content);
  if (images.length) out.images = images;
  if (m.tool_calls?.length) {
    out.tool_calls = m.tool_calls.map((c) => {
      names.set(c.id, c.function.name);
      return { function: { name: c.function.name, arguments: parseArgs(c.function.arguments) } };
    });
  }
  if (m.role === 'tool' && m.tool_call_id && names.has(m.tool_call_id)) out.tool_name = names.get(m.tool_call_id);
  return out;
}

/** OpenAI chat → Ollama `/api/chat` (relay.md §5.10). */
export function ollamaChatBody(req: HubRequest, stream: boolean): Record<string, unknown> {
  const names = new Map<string, string>();
  const options: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined && value !== null) options[key] = value;
  };
  set('temperature', req.temperature);
  set('top_p', req.top_p);
  set('top_k', req.top_k);
  set('seed', req.seed);
  set('num_predict', req.max_completion_tokens ?? req.max_tokens);
  set('stop', typeof req.stop === 'string' ? [req.stop] : req.stop);
  set('frequency_penalty', req.frequency_penalty);
  set('presence_penalty', req.presence_penalty);
  const body: Record<string, unknown> = {
    model: req.model,
    messages: (req.messages ?? []).map((m) => toOllamaMessage(m, names)),
    stream, // Ollama streams unless told otherwise
  };
  if (Object.keys(options).length) body.options = options;
  if (req.tools?.length) body.tools = req.tools;
  const format = req.response_format;
  if (format?.type === 'json_object') body.format = 'json';
  else if (format?.type === 'json_schema' && isObject(format.json_schema.schema)) body.format = format.json_schema.schema;
  if (req.reasoning_effort) body.think = req.reasoning_effort !== 'none';
  return body;
}

/** OpenAI embeddings → Ollama `/api/embed`. */
export function ollamaEmbedBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { model: body.model, input: body.input };
  if (typeof body.dimensions === 'number') out.dimensions = body.dimensions;
  return out;
}
