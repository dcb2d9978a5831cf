import { HubError } from '../../../common/errors.js';
import type { HubRequest } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';
import { mapFamilyError } from '../openai-family/family.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import { ChunkStream } from '../shared/openai-shapes.js';
import type { ChannelTarget, Endpoint, Frame, ProviderAdapter, StreamMapper } from '../types.js';

/** The console names Coze bots `coze-<bot_id>`. */
export const botIdOf = (model: string) => (model.startsWith('coze-') ? model.slice(5) : model);

/** v3 lives at the API root; the catalogue's default base still carries the v2 `/open_api` segment. */
const apiRoot = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '').replace(/\/open_api$/, '');

/** OpenAI chat → Coze v3 chat: the conversation as additional messages (the bot keeps its own persona). */
export function cozeBody(req: HubRequest): Record<string, unknown> {
  return {
    bot_id: botIdOf(req.model),
    user_id: typeof req.user === 'string' && req.user ? req.user : 'one-hub',
    stream: true, // Coze answers a non-stream chat only by polling; the gateway joins the stream instead
    auto_save_history: false,
    additional_messages: (req.messages ?? [])
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .map((m) => ({ role: m.role, content: textOf(m.content), content_type: 'text', ...(m.role === 'assistant' ? { type: 'answer' } : {}) })),
  };
}

interface CozeEvent {
  id?: string;
  chat_id?: string;
  role?: string;
  type?: string;
  content?: string;
  reasoning_content?: string;
  usage?: { input_count?: number; output_count?: number };
  last_error?: { code?: number; msg?: string };
  code?: number;
  msg?: string;
}

/** Coze v3 events (named by the SSE event) → OpenAI chunks: answer deltas are content, the chat's completion carries usage. */
export function createCozeStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  return out.mapper((data, event): Frame[] => {
    if (event === 'done') return [];
    let e: CozeEvent;
    try {
      e = JSON.parse(data) as CozeEvent;
    } catch {
      return [];
    }
    if (event === 'error') throw new Error(`Coze: ${e.msg ?? data} (code ${e.code})`);
    if (event === 'conversation.chat.failed') throw new Error(`Coze: ${e.last_error?.msg ?? 'chat failed'} (code ${e.last_error?.code})`);
    if (event === 'conversation.chat.created') out.identify(`chatcmpl-${e.id}`);
    if (event === 'conversation.message.delta' && e.role === 'assistant' && e.type === 'answer') {
      return out.delta({ ...(e.content ? { content: e.content } : {}), ...(e.reasoning_content ? { reasoning_content: e.reasoning_content } : {}) });
    }
    if (event === 'conversation.chat.completed') {
      out.setUsage(e.usage?.input_count ?? 0, e.usage?.output_count ?? 0);
      out.end();
      return out.finish('stop');
    }
    return [];
  });
}

/** Coze (type 38): bots through the v3 chat API with a personal access token. */
export const coze: ProviderAdapter = {
  types: [38],
  name: 'coze',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions']),
  convertsStream: true,
  streamOnly: true,

  buildRequest(_endpoint, body, channel) {
    const req = body as HubRequest;
    if (!botIdOf(req.model)) throw new HubError(400, 'Coze models are named coze-<bot_id>', { code: 'invalid_model' });
    return {
      url: `${apiRoot(channel)}/v3/chat`,
      headers: { 'content-type': 'application/json', ...channel.headers, authorization: `Bearer ${channel.key}` },
      body: cozeBody(req),
    };
  },
  // Errors before the stream starts come as JSON `{code, msg}` with HTTP 200.
  transformResponse(_endpoint, json) {
    const e = json as { code?: number; msg?: string };
    if (e.code) throw new HubError(e.code === 4100 || e.code === 4101 ? 401 : 400, `Provider API error: ${e.msg ?? 'Coze error'} (code ${e.code})`, { type: 'upstream_error', code: String(e.code) });
    return json;
  },
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createCozeStreamMapper,
  mapError: (status, body) => mapFamilyError(status, body.replace('"msg"', '"message"')),
};
