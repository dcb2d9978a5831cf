import { nowSeconds, randomIds, type IdSource } from '../shared/ids.js';
import type { HubChunk } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, usageToResponses, type Usage } from '../openai/usage.js';
import { echoFields, outcome } from './response-from-hub.js';
import type { ResponsesEvent, ResponsesObject, ResponsesOutputItem, ResponsesRequest } from './types.js';
import { reasoningOf } from '../openai/reasoning.js';

export interface HubToResponsesStream {
  /** One hub chunk → Responses events (created/in_progress come first). Usage-only chunks are fine. */
  push(chunk: HubChunk): ResponsesEvent[];
  /** Upstream ended: closes open items, then response.completed (or .incomplete) with usage. */
  finish(usage?: Usage): ResponsesEvent[];
  /** Upstream failed after the first byte: response.failed; nothing follows. */
  error(err: { message: string; code?: string }): ResponsesEvent[];
  usage(): Usage | null;
  warnings: string[];
}

type Open = { item: ResponsesOutputItem; index: number; text: string; tool?: number } | null;

/** Per-request state machine: OpenAI chat chunks → the Responses API event sequence, stable item ids, increasing sequence_number. */
export function createHubToResponsesStream(opts: { model: string; request?: ResponsesRequest; ids?: IdSource; now?: number }): HubToResponsesStream {
  const warnings: string[] = [];
  const ids = opts.ids ?? randomIds;
  const id = ids.next('resp');
  const createdAt = opts.now ?? nowSeconds();
  const output: ResponsesOutputItem[] = [];
  const closedTools = new Set<number>();
  let seq = 0;
  let started = false;
  let done = false;
  let open: Open = null;
  let finish: string | null = null;
  let usage: Usage | null = null;
  let out: ResponsesEvent[] = [];

  const emit = (type: string, body: Record<string, unknown>) => out.push({ type, sequence_number: seq++, ...body });
  const snapshot = (status: ResponsesObject['status'], extra: Partial<ResponsesObject> = {}): ResponsesObject => ({
    id, object: 'response', created_at: createdAt, status, model: opts.model, output: structuredClone(output), usage: null, error: null, incomplete_details: null, ...echoFields(opts.request), ...extra,
  });
  const start = () => {
    if (started) return;
    started = true;
    emit('response.created', { response: snapshot('in_progress') });
    emit('response.in_progress', { response: snapshot('in_progress') });
  };
  const close = () => {
    if (!open) return;
    const { item, index, text } = open;
    const ref = { item_id: item.id, output_index: index };
    if (item.type === 'reasoning') {
      const part = { type: 'summary_text', text };
      item.summary = [{ type: 'summary_text', text }];
      emit('response.reasoning_summary_text.done', { ...ref, summary_index: 0, text });
      emit('response.reasoning_summary_part.done', { ...ref, summary_index: 0, part });
    } else if (item.type === 'message') {
      const part = { type: 'output_text' as const, text, annotations: [] };
      item.status = 'completed';
      item.content = [part];
      emit('response.output_text.done', { ...ref, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { ...ref, content_index: 0, part });
    } else {
      item.status = 'completed';
      item.arguments = text;
      closedTools.add(open.tool!);
      emit('response.function_call_arguments.done', { ...ref, name: item.name, arguments: text });
    }
    emit('response.output_item.done', { output_index: index, item: structuredClone(item) });
    open = null;
  };
  const openItem = (item: ResponsesOutputItem, tool?: number) => {
    close();
    const index = output.length;
    output.push(item);
    open = { item, index, text: '', tool };
    emit('response.output_item.added', { output_index: index, item: structuredClone(item) });
    const ref = { item_id: item.id, output_index: index };
    if (item.type === 'reasoning') emit('response.reasoning_summary_part.added', { ...ref, summary_index: 0, part: { type: 'summary_text', text: '' } });
    if (item.type === 'message') emit('response.content_part.added', { ...ref, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  };
  const take = () => {
    const r = out;
    out = [];
    return r;
  };

  function push(chunk: HubChunk): ResponsesEvent[] {
    if (done) return [];
    start();
    if (chunk.usage) usage = usageFromOpenAI(chunk.usage) ?? usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return take();
    const d = choice.delta ?? {};
    const reasoning = reasoningOf(d);
    if (reasoning) {
      if (open?.item.type !== 'reasoning') openItem({ id: ids.next('rs'), type: 'reasoning', summary: [] });
      open!.text += reasoning;
      emit('response.reasoning_summary_text.delta', { item_id: open!.item.id, output_index: open!.index, summary_index: 0, delta: reasoning });
    }
    if (typeof d.content === 'string' && d.content) {
      if (open?.item.type !== 'message') openItem({ id: ids.next('msg'), type: 'message', status: 'in_progress', role: 'assistant', content: [] });
      open!.text += d.content;
      emit('response.output_text.delta', { item_id: open!.item.id, output_index: open!.index, content_index: 0, delta: d.content, logprobs: [] });
    }
    for (const tc of d.tool_calls ?? []) {
      if (open?.tool !== tc.index) {
        if (closedTools.has(tc.index) || !tc.function?.name) {
          warnings.push(`tool call ${tc.index}: out-of-order fragment dropped`);
          continue;
        }
        openItem({ id: ids.next('fc'), type: 'function_call', status: 'in_progress', call_id: tc.id ?? ids.next('call'), name: tc.function.name, arguments: '' }, tc.index);
      }
      const args = tc.function?.arguments;
      if (args) {
        open!.text += args;
        emit('response.function_call_arguments.delta', { item_id: open!.item.id, output_index: open!.index, delta: args });
      }
    }
    if (choice.finish_reason) finish = choice.finish_reason;
    return take();
  }

  function end(final?: Usage): ResponsesEvent[] {
    if (done) return [];
    start();
    close();
    done = true;
    if (final) usage = final;
    const result = outcome(finish);
    const response = snapshot(result.status, { ...result, usage: usageToResponses(usage ?? emptyUsage()) });
    emit(result.status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
    return take();
  }

  function error(err: { message: string; code?: string }): ResponsesEvent[] {
    if (done) return [];
    start();
    done = true;
    emit('response.failed', { response: snapshot('failed', { error: { code: err.code ?? 'server_error', message: err.message }, usage: usage ? usageToResponses(usage) : null }) });
    return take();
  }

  return { push, finish: end, error, usage: () => usage, warnings };
}
