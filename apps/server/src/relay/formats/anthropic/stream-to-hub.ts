import { UpstreamStreamError } from '../shared/errors.js';
import { nowSeconds } from '../shared/ids.js';
import type { HubChunk, HubDelta, HubFinishReason } from '../openai/types.js';
import { usageToOpenAI, type Usage } from '../openai/usage.js';
import { stopReasonToHub } from './stop-reason.js';
import type { AnthropicStreamEvent } from './types.js';
import { mergeAnthropicUsage, usageFromAnthropic } from './usage.js';

export interface AnthropicToHubStream {
  /** One upstream event → the hub chunks to send (possibly none). Throws UpstreamStreamError on an `error` event. */
  push(event: AnthropicStreamEvent): HubChunk[];
  /** After the upstream ended: the trailing usage chunk when asked for. */
  finish(): HubChunk[];
  /** Usage seen so far (message_start merged with message_delta), null before any. */
  usage(): Usage | null;
  warnings: string[];
}

export interface AnthropicToHubStreamOptions {
  /** Model name shown to the caller (defaults to upstream's). */
  model?: string;
  /** Emit a final `choices: []` chunk with usage (stream_options.include_usage). */
  includeUsage?: boolean;
  now?: number;
}

/** Per-request state machine: Anthropic Messages SSE events → OpenAI chat chunks with one stable id. */
export function createAnthropicToHubStream(opts: AnthropicToHubStreamOptions = {}): AnthropicToHubStream {
  const warnings: string[] = [];
  const created = opts.now ?? nowSeconds();
  let id = 'chatcmpl-stream';
  let model = opts.model ?? '';
  let rawUsage: Record<string, unknown> | null = null;
  let finished = false;
  // Anthropic block index → OpenAI tool-call index and whether arguments arrived.
  const tools = new Map<number, { index: number; args: boolean }>();
  const chunk = (delta: HubDelta, finish: HubFinishReason | null = null): HubChunk => ({
    id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }],
  });

  function push(e: AnthropicStreamEvent): HubChunk[] {
    switch (e.type) {
      case 'message_start':
        id = `chatcmpl-${e.message.id}`;
        model = opts.model ?? e.message.model;
        rawUsage = mergeAnthropicUsage(null, e.message.usage ?? {});
        return [chunk({ role: 'assistant', content: '' })];
      case 'content_block_start': {
        const b = e.content_block as { type: string; id?: string; name?: string; text?: string; data?: string };
        if (b.type === 'tool_use') {
          const index = tools.size;
          tools.set(e.index, { index, args: false });
          return [chunk({ tool_calls: [{ index, id: b.id, type: 'function', function: { name: b.name, arguments: '' } }] })];
        }
        if (b.type === 'redacted_thinking') return [chunk({ thinking_blocks: [{ type: 'redacted_thinking', data: b.data ?? '' }] })];
        if (b.type === 'text') return b.text ? [chunk({ content: b.text })] : [];
        if (b.type !== 'thinking') warnings.push(`stream: dropped content block of type "${b.type}"`);
        return [];
      }
      case 'content_block_delta': {
        const d = e.delta;
        if (d.type === 'text_delta') return [chunk({ content: d.text })];
        if (d.type === 'thinking_delta') return [chunk({ reasoning_content: d.thinking })];
        if (d.type === 'signature_delta') return [chunk({ reasoning_signature: d.signature })];
        if (d.type === 'input_json_delta') {
          const t = tools.get(e.index);
          if (!t || !d.partial_json) return [];
          t.args = true;
          return [chunk({ tool_calls: [{ index: t.index, function: { arguments: d.partial_json } }] })];
        }
        return [];
      }
      case 'content_block_stop': {
        const t = tools.get(e.index);
        // A tool call without arguments still needs valid JSON for OpenAI clients.
        if (t && !t.args) return [chunk({ tool_calls: [{ index: t.index, function: { arguments: '{}' } }] })];
        return [];
      }
      case 'message_delta':
        if (e.usage) rawUsage = mergeAnthropicUsage(rawUsage, e.usage);
        return [chunk({}, stopReasonToHub(e.delta.stop_reason) ?? 'stop')];
      case 'message_stop':
        return finish();
      case 'error':
        throw new UpstreamStreamError(e.error?.message ?? 'upstream stream error', e.error?.type ?? 'api_error', e.error?.type === 'overloaded_error' ? 529 : 502);
      default:
        return [];
    }
  }

  function finish(): HubChunk[] {
    if (finished) return [];
    finished = true;
    const u = usageFromAnthropic(rawUsage);
    if (!opts.includeUsage || !u) return [];
    return [{ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageToOpenAI(u) }];
  }

  return { push, finish, usage: () => usageFromAnthropic(rawUsage), warnings };
}
