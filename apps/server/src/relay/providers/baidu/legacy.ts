import { HubError } from '../../../common/errors.js';
import type { HubRequest } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';
import { chatAnswer, ChunkStream, embeddingsAnswer, usageJson } from '../shared/openai-shapes.js';
import type { ChannelTarget, Frame, FormPoster, StreamMapper, UpstreamRequest } from '../types.js';

/** Console model names → ERNIE endpoint names of the wenxinworkshop API; others are lower-cased. */
const ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed-8K': 'ernie_speed',
};
export const ernieEndpoint = (model: string) => ENDPOINTS[model] ?? model.toLowerCase();

export const isLegacyKey = (key: string) => key.includes('|');

/** OpenAI chat → ERNIE chat: system text moves to `system`, sampling names change. */
export function ernieBody(req: HubRequest, stream: boolean): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).join('\n');
  const body: Record<string, unknown> = {
    messages: req.messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role, content: textOf(m.content) })),
    stream,
  };
  if (system) body.system = system;
  if (typeof req.temperature === 'number') body.temperature = Math.min(Math.max(req.temperature, 0.01), 1);
  if (typeof req.top_p === 'number') body.top_p = req.top_p;
  const max = req.max_completion_tokens ?? req.max_tokens;
  if (typeof max === 'number') body.max_output_tokens = Math.max(max, 2);
  if (req.stop) body.stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (req.user) body.user_id = req.user;
  return body;
}

interface ErnieAnswer {
  id?: string;
  created?: number;
  result?: string;
  is_end?: boolean;
  is_truncated?: boolean;
  finish_reason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  data?: Array<{ embedding: number[]; index: number }>;
  error_code?: number;
  error_msg?: string;
}

/** ERNIE reports failures with HTTP 200 and `error_code`. */
export function ernieError(code: number, message: string | undefined): HubError {
  const status = code === 110 || code === 111 ? 401 : code === 18 || code === 336501 || code === 336502 ? 429 : 400;
  return new HubError(status, `Provider API error: ${message ?? 'ERNIE error'} (code ${code})`, { type: 'upstream_error', code: String(code), retryable: status !== 400 });
}

export function ernieAnswer(endpoint: string, json: ErnieAnswer, request: { model?: string; encoding_format?: unknown }): unknown {
  if (json.error_code) throw ernieError(json.error_code, json.error_msg);
  if (endpoint === 'embeddings') {
    const vectors = [...(json.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    return embeddingsAnswer(request.model ?? '', vectors, json.usage?.prompt_tokens ?? 0, request.encoding_format);
  }
  return chatAnswer({
    id: json.id,
    created: json.created,
    model: request.model ?? '',
    content: json.result ?? '',
    finish: json.is_truncated || json.finish_reason === 'length' ? 'length' : 'stop',
    usage: usageJson(json.usage?.prompt_tokens ?? 0, json.usage?.completion_tokens ?? 0),
  });
}

/** ERNIE stream events (`result` pieces, `is_end` on the last one) → OpenAI chunks. */
export function createErnieStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  return out.mapper((data): Frame[] => {
    let e: ErnieAnswer;
    try {
      e = JSON.parse(data) as ErnieAnswer;
    } catch {
      return [];
    }
    if (e.error_code) throw new Error(`ERNIE: ${e.error_msg} (code ${e.error_code})`);
    out.identify(e.id);
    if (e.usage) out.setUsage(e.usage.prompt_tokens ?? 0, e.usage.completion_tokens ?? 0);
    const frames = e.result ? out.delta({ content: e.result }) : [];
    if (e.is_end) {
      out.end();
      frames.push(...out.finish(e.is_truncated ? 'length' : 'stop'));
    }
    return frames;
  });
}

const tokens = new Map<string, { token: string; expires: number }>();

/**
 * Client-credential access token for `clientId|clientSecret`, cached per key until shortly
 * before it expires (relay.md §5.9), added to the request as `access_token`.
 */
export async function withErnieToken(req: UpstreamRequest, channel: ChannelTarget, post: FormPoster): Promise<UpstreamRequest> {
  const [clientId, clientSecret] = channel.key.split('|').map((s) => s.trim());
  let cached = tokens.get(channel.key);
  if (!cached || cached.expires <= Date.now()) {
    const oauth = `${new URL(req.url).origin}/oauth/2.0/token`;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
    const res = await post(`${oauth}?${form}`, form);
    let parsed: { access_token?: string; expires_in?: number; error_description?: string } = {};
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // reported below
    }
    if (res.status >= 400 || !parsed.access_token) {
      throw new HubError(401, `Baidu access token request failed: ${parsed.error_description ?? res.body.slice(0, 200)}`, { code: 'upstream_auth_failed', retryable: true });
    }
    cached = { token: parsed.access_token, expires: Date.now() + Math.max(60, (parsed.expires_in ?? 86_400) - 3600) * 1000 };
    tokens.set(channel.key, cached);
  }
  const url = new URL(req.url);
  url.searchParams.set('access_token', cached.token);
  return { ...req, url: url.toString() };
}
