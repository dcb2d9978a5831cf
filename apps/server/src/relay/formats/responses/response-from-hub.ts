import { nowSeconds, randomIds, type IdSource } from '../shared/ids.js';
import type { Converted } from '../shared/errors.js';
import type { HubFinishReason, HubResponse } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, usageToResponses, type Usage } from '../openai/usage.js';
import type { ResponsesObject, ResponsesOutputItem, ResponsesRequest } from './types.js';
import { reasoningOf } from '../openai/reasoning.js';

/** Request fields a Responses object echoes back. */
export function echoFields(req: ResponsesRequest | undefined): Record<string, unknown> {
  if (!req) return {};
  return {
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    previous_response_id: req.previous_response_id ?? null,
    reasoning: req.reasoning ?? null,
    store: req.store ?? true,
    temperature: req.temperature ?? null,
    text: req.text ?? { format: { type: 'text' } },
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    top_p: req.top_p ?? null,
    metadata: req.metadata ?? {},
    user: req.user ?? null,
  };
}

/** Status and incomplete reason for a finish_reason. */
export function outcome(finish: HubFinishReason | string | null | undefined): Pick<ResponsesObject, 'status' | 'incomplete_details'> {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

export interface HubToResponsesOptions {
  request?: ResponsesRequest;
  usage?: Usage;
  ids?: IdSource;
  now?: number;
}

/** Hub chat completion → Responses API object (reasoning, message and function_call items, in that order). */
export function hubResponseToResponses(res: HubResponse, opts: HubToResponsesOptions = {}): Converted<ResponsesObject> {
  const warnings: string[] = [];
  const ids = opts.ids ?? randomIds;
  if (res.choices.length > 1) warnings.push(`choices: ${res.choices.length - 1} extra choice(s) dropped`);
  const choice = res.choices[0];
  const m = choice?.message;
  const output: ResponsesOutputItem[] = [];
  const reasoning = reasoningOf(m);
  if (reasoning) output.push({ id: ids.next('rs'), type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning }] });
  const text = typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  const { status, incomplete_details } = outcome(choice?.finish_reason);
  if (text) output.push({ id: ids.next('msg'), type: 'message', status: status === 'incomplete' ? 'incomplete' : 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
  for (const c of m?.tool_calls ?? []) {
    output.push({ id: ids.next('fc'), type: 'function_call', status: 'completed', call_id: c.id, name: c.function.name, arguments: c.function.arguments });
  }
  if (m?.images?.length) warnings.push('message.images: generated images dropped');
  const usage = opts.usage ?? usageFromOpenAI(res.usage) ?? emptyUsage();
  const value: ResponsesObject = {
    id: ids.next('resp'),
    object: 'response',
    created_at: opts.now ?? nowSeconds(),
    status,
    model: res.model,
    output,
    usage: usageToResponses(usage),
    error: null,
    incomplete_details,
    ...echoFields(opts.request),
  };
  return { value, warnings };
}
