import type { HubFinishReason, HubMessage, HubRequest, HubToolCall } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';
import { familyAdapter, mapFamilyError } from '../openai-family/family.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import { chatAnswer, ChunkStream, embeddingsAnswer, usageJson } from '../shared/openai-shapes.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, StreamMapper } from '../types.js';

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');

/** Vision models answer on the multimodal service, with content as `[{text}|{image}]` parts. */
const isVision = (model: string) => /-vl|qvq|-omni|-audio/.test(model);

function headers(c: ChannelTarget, stream: boolean): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...c.headers,
    authorization: `Bearer ${c.key}`,
    ...(stream ? { 'x-dashscope-sse': 'enable' } : {}),
    ...(c.other.trim() ? { 'x-dashscope-plugin': c.other.trim() } : {}),
  };
}

function toDashScope(m: HubMessage, vision: boolean): Record<string, unknown> {
  const role = m.role === 'developer' ? 'system' : m.role;
  const content = vision && Array.isArray(m.content)
    ? m.content.flatMap((p): Array<Record<string, unknown>> => (p.type === 'text' ? [{ text: p.text }] : p.type === 'image_url' ? [{ image: p.image_url.url }] : []))
    : vision ? [{ text: textOf(m.content) }] : textOf(m.content);
  const out: Record<string, unknown> = { role, content };
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
  if (role === 'tool' && m.tool_call_id) out.tool_call_id = m.tool_call_id;
  return out;
}

/** OpenAI chat → DashScope generation (`result_format: message`, incremental streams). */
export function dashScopeChatBody(req: HubRequest, stream: boolean, search = false): Record<string, unknown> {
  const vision = isVision(req.model);
  const parameters: Record<string, unknown> = { result_format: 'message' };
  if (stream) parameters.incremental_output = true;
  const copy = (from: unknown, to: string) => {
    if (from !== undefined && from !== null) parameters[to] = from;
  };
  copy(req.max_completion_tokens ?? req.max_tokens, 'max_tokens');
  copy(req.temperature, 'temperature');
  copy(req.top_p, 'top_p');
  copy(req.top_k, 'top_k');
  copy(req.seed, 'seed');
  copy(req.stop, 'stop');
  copy(req.presence_penalty, 'presence_penalty');
  copy(req.tools?.length ? req.tools : undefined, 'tools');
  copy(req.tool_choice, 'tool_choice');
  copy(req.response_format, 'response_format');
  if (search) parameters.enable_search = true;
  return { model: req.model, input: { messages: (req.messages ?? []).map((m) => toDashScope(m, vision)) }, parameters };
}

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

/** DashScope's OpenAI-compatible mode (plugin `use_openai_api`), under `<base>/compatible-mode/v1`. */
const aliCompatible = familyAdapter({
  name: 'ali-compatible',
  types: [17],
  endpoints: ['chat/completions', 'embeddings'],
  streamUsage: true,
  url: (channel, endpoint) => `${base(channel).replace(/\/compatible-mode(\/v1)?$/, '')}/compatible-mode/v1/${endpoint}`,
  models: (channel) => `${base(channel).replace(/\/compatible-mode(\/v1)?$/, '')}/compatible-mode/v1/models`,
});

const enabled = (plugin: Record<string, Record<string, unknown>>, name: string) => plugin[name]?.enable === true;

/** Ali DashScope (type 17), native generation API (relay.md §5.9); the `use_openai_api` plugin selects compatible mode. */
export const ali: ProviderAdapter = {
  types: [17],
  name: 'ali',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions', 'embeddings']),
  convertsStream: true,
  forPlugin: (plugin) => (enabled(plugin, 'use_openai_api') ? aliCompatible : undefined),

  buildRequest(endpoint, body, channel, opts) {
    const b = body as Record<string, unknown>;
    if (endpoint === 'embeddings') {
      const texts = Array.isArray(b.input) ? b.input : [b.input];
      return { url: `${base(channel)}/api/v1/services/embeddings/text-embedding/text-embedding`, headers: headers(channel, false), body: { model: b.model, input: { texts } } };
    }
    const service = isVision(String(b.model)) ? 'multimodal-generation' : 'text-generation';
    return { url: `${base(channel)}/api/v1/services/aigc/${service}/generation`, headers: headers(channel, opts.stream), body: dashScopeChatBody(b as HubRequest, opts.stream, enabled(channel.plugin ?? {}, 'web_search')) };
  },
  transformResponse: dashScopeAnswer,
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createDashScopeStreamMapper,
  mapError: mapFamilyError,

  modelsRequest: (channel) => ({ url: `${base(channel)}/compatible-mode/v1/models`, headers: { ...channel.headers, authorization: `Bearer ${channel.key}` }, body: undefined }),
  parseModels: (json) => {
    const data = (json as { data?: Array<{ id?: unknown }> } | null)?.data;
    return Array.isArray(data) ? data.map((m) => m.id).filter((id): id is string => typeof id === 'string') : [];
  },
};
