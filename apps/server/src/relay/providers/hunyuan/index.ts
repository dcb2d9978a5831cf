import { HubError } from '../../../common/errors.js';
import type { HubFinishReason, HubMessage, HubRequest } from '../../formats/openai/types.js';
import { textOf } from '../../formats/shared/json.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import { chatAnswer, ChunkStream, usageJson } from '../shared/openai-shapes.js';
import type { ChannelTarget, Endpoint, ProviderAdapter, StreamMapper } from '../types.js';
import { tc3Headers } from './sign.js';

function toHunyuan(m: HubMessage): Record<string, unknown> {
  const role = m.role === 'developer' ? 'system' : m.role;
  const out: Record<string, unknown> = { Role: role };
  if (Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url')) {
    out.Contents = m.content.flatMap((p): Array<Record<string, unknown>> => (p.type === 'text' ? [{ Type: 'text', Text: p.text }] : p.type === 'image_url' ? [{ Type: 'image_url', ImageUrl: { Url: p.image_url.url } }] : []));
  } else out.Content = textOf(m.content);
  if (m.tool_calls?.length) out.ToolCalls = m.tool_calls.map((c) => ({ Id: c.id, Type: 'function', Function: { Name: c.function.name, Arguments: c.function.arguments } }));
  if (role === 'tool') out.ToolCallId = m.tool_call_id;
  return out;
}

/** OpenAI chat → Hunyuan ChatCompletions (PascalCase fields). */
export function hunyuanBody(req: HubRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { Model: req.model, Messages: (req.messages ?? []).map(toHunyuan), Stream: stream };
  if (typeof req.temperature === 'number') body.Temperature = req.temperature;
  if (typeof req.top_p === 'number') body.TopP = req.top_p;
  if (req.tools?.length) {
    body.Tools = req.tools.map((t) => ({ Type: 'function', Function: { Name: t.function.name, Description: t.function.description ?? '', Parameters: JSON.stringify(t.function.parameters ?? {}) } }));
    if (typeof req.tool_choice === 'string') body.ToolChoice = req.tool_choice === 'required' ? 'custom' : req.tool_choice;
  }
  return body;
}

interface HunyuanChoice {
  FinishReason?: string;
  Message?: { Content?: string; ReasoningContent?: string; ToolCalls?: Array<{ Id: string; Function: { Name: string; Arguments: string } }> };
  Delta?: { Content?: string; ReasoningContent?: string; ToolCalls?: Array<{ Id?: string; Index?: number; Function?: { Name?: string; Arguments?: string } }> };
}

interface HunyuanAnswer {
  Id?: string;
  Created?: number;
  Usage?: { PromptTokens?: number; CompletionTokens?: number };
  Choices?: HunyuanChoice[];
  Error?: { Code?: string; Message?: string };
  ErrorMsg?: { Code?: number; Msg?: string };
}

const finishOf = (reason: string | undefined): HubFinishReason | null =>
  !reason ? null : reason === 'length' ? 'length' : reason === 'tool_calls' ? 'tool_calls' : reason === 'sensitive' ? 'content_filter' : 'stop';

/** Tencent errors arrive with HTTP 200 as `Response.Error`: the code decides the status. */
function tencentError(error: { Code?: string; Message?: string }, body: string): HubError {
  const code = error.Code ?? 'UnknownError';
  const status = code.startsWith('AuthFailure') ? 401 : /LimitExceeded/.test(code) ? 429 : code.startsWith('InternalError') ? 500 : 400;
  return new HubError(status, `Provider API error: ${scrubSecrets(error.Message ?? code)}`, { type: 'upstream_error', code, upstream: body.slice(0, 2000), retryable: status >= 429 });
}

function hunyuanAnswer(_endpoint: Endpoint, json: unknown, request: unknown): unknown {
  const a = (json as { Response?: HunyuanAnswer }).Response ?? {};
  if (a.Error) throw tencentError(a.Error, JSON.stringify(json));
  const choice = a.Choices?.[0];
  const calls = choice?.Message?.ToolCalls?.map((c) => ({ id: c.Id, type: 'function' as const, function: { name: c.Function.Name, arguments: c.Function.Arguments } }));
  return chatAnswer({
    id: a.Id,
    created: a.Created,
    model: (request as { model?: string })?.model ?? '',
    content: choice?.Message?.Content ?? '',
    reasoning: choice?.Message?.ReasoningContent || undefined,
    toolCalls: calls,
    finish: finishOf(choice?.FinishReason) ?? 'stop',
    usage: usageJson(a.Usage?.PromptTokens ?? 0, a.Usage?.CompletionTokens ?? 0),
  });
}

function createHunyuanStreamMapper(opts: { forwardUsage: boolean; model?: string }): StreamMapper {
  const out = new ChunkStream(opts.forwardUsage, opts.model);
  return out.mapper((data) => {
    let a: HunyuanAnswer;
    try {
      a = JSON.parse(data) as HunyuanAnswer;
    } catch {
      return [];
    }
    if (a.ErrorMsg?.Code) throw new Error(`Hunyuan: ${a.ErrorMsg.Msg ?? a.ErrorMsg.Code}`);
    out.identify(a.Id);
    if (a.Usage) out.setUsage(a.Usage.PromptTokens ?? 0, a.Usage.CompletionTokens ?? 0);
    const choice = a.Choices?.[0];
    const d = choice?.Delta;
    const frames = [];
    if (d?.Content || d?.ReasoningContent) frames.push(...out.delta({ ...(d.Content ? { content: d.Content } : {}), ...(d.ReasoningContent ? { reasoning_content: d.ReasoningContent } : {}) }));
    if (d?.ToolCalls?.length) {
      frames.push(...out.delta({ tool_calls: d.ToolCalls.map((c, i) => ({ index: c.Index ?? i, id: c.Id, type: 'function' as const, function: { name: c.Function?.Name, arguments: c.Function?.Arguments } })) }));
    }
    const finish = finishOf(choice?.FinishReason);
    if (finish) {
      out.end();
      frames.push(...out.finish(finish));
    }
    return frames;
  });
}

function credentials(channel: ChannelTarget): { secretId: string; secretKey: string } {
  const [secretId, secretKey] = channel.key.split('|').map((s) => s.trim());
  if (!secretId || !secretKey) throw new HubError(503, 'Hunyuan channel key must be SecretId|SecretKey', { code: 'channel_misconfigured', retryable: true });
  return { secretId, secretKey };
}

/** Tencent Hunyuan (type 40): the cloud API `ChatCompletions`, TC3-HMAC-SHA256 signed (relay.md §5.9). */
export const hunyuan: ProviderAdapter = {
  types: [40],
  name: 'hunyuan',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['chat/completions']),
  convertsStream: true,

  buildRequest(_endpoint, body, channel, opts) {
    const url = `${channel.baseUrl.replace(/\/+$/, '')}/`;
    // The signature covers these exact bytes, so they are sent as built.
    const payload = Buffer.from(JSON.stringify(hunyuanBody(body as HubRequest, opts.stream)));
    const signed = tc3Headers({
      ...credentials(channel),
      service: 'hunyuan',
      host: new URL(url).host,
      action: 'ChatCompletions',
      version: '2023-09-01',
      payload,
      timestamp: Math.floor(Date.now() / 1000),
    });
    return { url, headers: { ...channel.headers, ...signed }, body: payload, raw: true };
  },
  transformResponse: hunyuanAnswer,
  parseUsage: (_endpoint, json) => readOpenAIUsage((json as { usage?: unknown } | null)?.usage),
  createStreamMapper: createHunyuanStreamMapper,
  mapError(status, body) {
    try {
      const error = (JSON.parse(body) as { Response?: HunyuanAnswer }).Response?.Error;
      if (error) return tencentError(error, body);
    } catch {
      // not JSON
    }
    return new HubError(status, `Provider API error: ${scrubSecrets(body.trim()).slice(0, 1000) || `status ${status}`}`, { type: 'upstream_error', upstream: body.slice(0, 2000) });
  },
};
