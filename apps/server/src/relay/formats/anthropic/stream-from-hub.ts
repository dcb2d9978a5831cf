import { randomIds, type IdSource } from '../shared/ids.js';
import type { HubChunk } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, type Usage } from '../openai/usage.js';
import { finishReasonToAnthropic } from './stop-reason.js';
import type { AnthropicBlock, AnthropicStreamEvent } from './types.js';
import { usageToAnthropic } from './usage.js';
import { reasoningOf } from '../openai/reasoning.js';

export interface HubToAnthropicStream {
  /** One hub chunk → Anthropic events (message_start comes with the first). */
  push(chunk: HubChunk): AnthropicStreamEvent[];
  /** Upstream ended: closes the open block, message_delta (stop_reason, usage), message_stop. */
  finish(usage?: Usage): AnthropicStreamEvent[];
  /** Upstream failed after the first byte: an Anthropic `error` event; nothing follows. */
  error(err: { message: string; type?: string }): AnthropicStreamEvent[];
  usage(): Usage | null;
  warnings: string[];
}

export interface HubToAnthropicStreamOptions {
  model: string;
  /** Input tokens known before the answer (estimate) for message_start. */
  inputTokens?: number;
  ids?: IdSource;
}

type Open = { kind: 'text' | 'thinking' | 'tool'; index: number; tool?: number } | null;

/** Per-request state machine: OpenAI chat chunks → the full Anthropic Messages event sequence. */
export function createHubToAnthropicStream(opts: HubToAnthropicStreamOptions): HubToAnthropicStream {
  const warnings: string[] = [];
  const id = (opts.ids ?? randomIds).next('msg');
  let started = false;
  let done = false;
  let open: Open = null;
  let next = 0;
  let stop: string | null = null;
  let usage: Usage | null = null;
  const closedTools = new Set<number>();

  const start = (out: AnthropicStreamEvent[]) => {
    if (started) return;
    started = true;
    const u = { ...usageToAnthropic({ ...emptyUsage(), inputUncached: opts.inputTokens ?? 0 }), output_tokens: 0 };
    out.push({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model: opts.model, content: [], stop_reason: null, stop_sequence: null, usage: u } });
  };
  const close = (out: AnthropicStreamEvent[]) => {
    if (!open) return;
    if (open.kind === 'tool' && open.tool !== undefined) closedTools.add(open.tool);
    out.push({ type: 'content_block_stop', index: open.index });
    open = null;
  };
  const openBlock = (out: AnthropicStreamEvent[], kind: 'text' | 'thinking' | 'tool', block: AnthropicBlock, tool?: number) => {
    close(out);
    open = { kind, index: next++, tool };
    out.push({ type: 'content_block_start', index: open.index, content_block: block });
  };

  function push(chunk: HubChunk): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = [];
    if (done) return out;
    start(out);
    if (chunk.usage) usage = usageFromOpenAI(chunk.usage) ?? usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return out;
    const d = choice.delta ?? {};
    if (d.thinking_blocks?.length) {
      for (const b of d.thinking_blocks) {
        openBlock(out, 'thinking', b);
        close(out);
      }
    }
    const reasoning = reasoningOf(d);
    if (reasoning) {
      if (open?.kind !== 'thinking') openBlock(out, 'thinking', { type: 'thinking', thinking: '', signature: '' });
      out.push({ type: 'content_block_delta', index: open!.index, delta: { type: 'thinking_delta', thinking: reasoning } });
    }
    if (d.reasoning_signature) {
      if (open?.kind !== 'thinking') openBlock(out, 'thinking', { type: 'thinking', thinking: '', signature: '' });
      out.push({ type: 'content_block_delta', index: open!.index, delta: { type: 'signature_delta', signature: d.reasoning_signature } });
    }
    if (typeof d.content === 'string' && d.content) {
      if (open?.kind !== 'text') openBlock(out, 'text', { type: 'text', text: '' });
      out.push({ type: 'content_block_delta', index: open!.index, delta: { type: 'text_delta', text: d.content } });
    }
    for (const tc of d.tool_calls ?? []) {
      const current = open as Open;
      const isOpen = current?.kind === 'tool' && current.tool === tc.index;
      if (!isOpen) {
        if (closedTools.has(tc.index) || !tc.function?.name) {
          warnings.push(`tool call ${tc.index}: out-of-order fragment dropped`);
          continue;
        }
        openBlock(out, 'tool', { type: 'tool_use', id: tc.id ?? (opts.ids ?? randomIds).next('toolu'), name: tc.function.name, input: {} }, tc.index);
      }
      const args = tc.function?.arguments;
      if (args) out.push({ type: 'content_block_delta', index: open!.index, delta: { type: 'input_json_delta', partial_json: args } });
    }
    if (choice.finish_reason) stop = choice.finish_reason;
    return out;
  }

  function finish(final?: Usage): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = [];
    if (done) return out;
    start(out);
    close(out);
    done = true;
    if (final) usage = final;
    const u = usageToAnthropic(usage ?? { ...emptyUsage(), inputUncached: opts.inputTokens ?? 0 });
    // No finish_reason from upstream: a turn that called tools still ends as tool_use.
    const reason = stop ? finishReasonToAnthropic(stop) : closedTools.size ? 'tool_use' : 'end_turn';
    out.push({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: u });
    out.push({ type: 'message_stop' });
    return out;
  }

  function error(err: { message: string; type?: string }): AnthropicStreamEvent[] {
    if (done) return [];
    done = true;
    return [{ type: 'error', error: { type: err.type ?? 'api_error', message: err.message } }];
  }

  return { push, finish, error, usage: () => usage, warnings };
}
